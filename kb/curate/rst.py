"""reStructuredText (the AWS Neuron pages) to Markdown, through docutils.

docutils parses the source into a document tree, so grid tables whose cells
wrap sentences across lines come out as whole cell paragraphs. Sphinx-only
roles (``:ref:``) are registered here to keep their visible text.
"""

from __future__ import annotations

import re

from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import roles

from kb.curate.tables import pipe_table

_REF_TEXT = re.compile(r"^(?P<text>.*?)\s*<[^<>]+>$", re.S)


def _ref_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    # :ref:`Title <target>` shows "Title"; a bare :ref:`target` shows the target.
    match = _REF_TEXT.match(text)
    shown = match.group("text") if match else text
    return [nodes.Text(" ".join(shown.split()))], []


roles.register_local_role("ref", _ref_role)
roles.register_local_role("doc", _ref_role)

_SKIP = (nodes.comment, nodes.target, nodes.system_message, nodes.substitution_definition,
         nodes.image, nodes.topic, nodes.pending, nodes.raw, nodes.line_block)


def _inline(node: nodes.Node) -> str:
    if isinstance(node, nodes.Text):
        return node.astext().replace("\n", " ")  # astext() drops docutils' escape markers
    if isinstance(node, _SKIP):
        return ""
    inner = "".join(_inline(child) for child in node.children)
    if isinstance(node, nodes.strong):
        return f"**{inner}**"
    if isinstance(node, nodes.emphasis):
        return f"*{inner}*"
    if isinstance(node, nodes.literal):
        return f"`{node.astext()}`"
    if isinstance(node, nodes.reference) and node.get("refuri", "").startswith("http"):
        return f"[{inner}]({node['refuri']})"
    return inner


def _squash(text: str) -> str:
    return " ".join(text.split())


def _cell_text(entry: nodes.entry) -> str:
    # A cell keeps whole sentences: paragraphs and list items joined in order.
    parts: list[str] = []
    for child in entry.children:
        if isinstance(child, (nodes.bullet_list, nodes.enumerated_list)):
            parts.append("; ".join(_squash(_inline(item)) for item in child.children))
        else:
            parts.append(_squash(_inline(child)))
    return " ".join(p for p in parts if p)


def _table(table: nodes.table) -> str:
    group = next(n for n in table.children if isinstance(n, nodes.tgroup))
    head = next((n for n in group.children if isinstance(n, nodes.thead)), None)
    body = next(n for n in group.children if isinstance(n, nodes.tbody))
    rows = [[_cell_text(e) for e in row.children] for row in body.children]
    header = [_cell_text(e) for e in head.children[0].children] if head is not None else [""] * len(rows[0])
    out = pipe_table(header, rows)
    title = next((n for n in table.children if isinstance(n, nodes.title)), None)
    return (f"*{_squash(title.astext())}*\n\n" + out) if title is not None else out


def _blocks(node: nodes.Node, depth: int) -> list[str]:
    out: list[str] = []
    for child in node.children:
        if isinstance(child, _SKIP) or isinstance(child, nodes.title):
            continue
        if isinstance(child, nodes.section):
            title = child.next_node(nodes.title)
            out.append("#" * min(depth + 1, 6) + " " + _squash(_inline(title)))
            out.extend(_blocks(child, depth + 1))
        elif isinstance(child, nodes.paragraph):
            text = _squash(_inline(child))
            if text:
                out.append(text)
        elif isinstance(child, nodes.bullet_list):
            out.append("\n".join("- " + _squash(_inline(item)) for item in child.children))
        elif isinstance(child, nodes.enumerated_list):
            out.append("\n".join(f"{i}. " + _squash(_inline(item)) for i, item in enumerate(child.children, 1)))
        elif isinstance(child, nodes.table):
            out.append(_table(child))
        elif isinstance(child, nodes.literal_block):
            out.append("```\n" + child.astext() + "\n```")
        elif isinstance(child, (nodes.Admonition, nodes.container, nodes.block_quote, nodes.compound)):
            out.extend(_blocks(child, depth))
        elif isinstance(child, nodes.Element):
            text = _squash(_inline(child))
            if text:
                out.append(text)
    return out


def curate_rst(text: str) -> str:
    """Markdown body (without the article title) of an RST page."""
    doctree = publish_doctree(text, settings_overrides={
        "report_level": 5, "halt_level": 5, "warning_stream": False,
        "file_insertion_enabled": False, "raw_enabled": False,
    })
    # docutils lifts a lone top section into the document title; the
    # article title comes from the catalog, so sections start at level 2.
    return "\n\n".join(_blocks(doctree, 1))
