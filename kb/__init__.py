"""A multilingual knowledge base about AI training hardware.

Curated Markdown articles are cut into chunks, embedded with a
sentence-transformers model into a FAISS index, and searched to answer
questions with cited passages.
"""

__version__ = "0.1.0"
