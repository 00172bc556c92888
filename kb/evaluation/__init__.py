"""The retrieval evaluation suite: ``kb eval``.

Two suites: the project's own labelled questions about its corpus
(``eval/datasets/kb-questions.jsonl``) and XQuAD-R, an external
cross-lingual benchmark (``eval/datasets/xquad-r/``). Results, reports and
charts go to ``eval/results/``; ``kb/evaluation/gate.py`` compares a fresh
run with the committed baseline.
"""
