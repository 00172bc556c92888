"""Markdown sources (ROCm MyST, scaling-book Distill/Jekyll, ML Engineering) to plain Markdown.

markdown-it-py finds the block structure (fences, so MyST directives and
code are recognised as blocks and code is left alone); the inline markup
that is not Markdown (Liquid tags, Distill HTML, LaTeX, links that only
work inside their repository) is rewritten line by line outside code.
"""

from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt

from kb.curate.tables import pipe_table

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
_LIQUID_FIGURE = re.compile(r"\{%\s*include\s+figure\.liquid\b(?P<attrs>.*?)%\}", re.S)
_LIQUID_ATTR = re.compile(r'(\w+)="(.*?)"', re.S)
_LIQUID_DETAILS = re.compile(r"\{%\s*details\s+(?P<label>.*?)\s*%\}")
_LIQUID_OTHER = re.compile(r"\{%.*?%\}", re.S)
_CITE = re.compile(r"<d-cite\b[^>]*>\s*</d-cite>")
_FOOTNOTE = re.compile(r"<d-footnote>(?P<text>.*?)</d-footnote>", re.S)
_ANCHOR = re.compile(r'<a\s+[^>]*href="(?P<href>[^"]*)"[^>]*>(?P<text>.*?)</a>', re.S)
_TAG = re.compile(r"</?[a-zA-Z][\w-]*(?:\s[^<>]*)?/?>")
_IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
_LINK = re.compile(r"(?<!!)\[(?P<text>[^\]]+)\]\((?P<href>[^)\s]+)\)")
_DISPLAY_MATH = re.compile(r"\$\$(?P<tex>.+?)\$\$", re.S)
_INLINE_MATH = re.compile(r"(?<![\\$\w])\$(?P<tex>[^$\n]+?)\$(?![\w$])")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")

_TEX_SYMBOLS = {
    r"\leftrightarrow": "↔", r"\rightarrow": "→", r"\leftarrow": "←", r"\to": "→",
    r"\cdot": "·", r"\times": "×", r"\approx": "≈", r"\simeq": "≃", r"\sim": "~",
    r"\le": "≤", r"\ge": "≥", r"\leq": "≤", r"\geq": "≥", r"\neq": "≠", r"\infty": "∞",
    r"\max": "max", r"\min": "min", r"\sum": "Σ", r"\alpha": "α", r"\beta": "β",
    r"\left": "", r"\right": "", r"\,": " ", r"\;": " ", r"\quad": " ", r"\{": "{", r"\}": "}",
}
_TEX_COMMAND = re.compile(r"\\[a-zA-Z]+|\\[,;{}]")
_TEX_TEXT = re.compile(r"\\(?:text|mathrm|mathbf|textbf|operatorname)\{([^{}]*)\}")
_TEX_FRAC = re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}")


def tex_to_text(tex: str) -> str:
    """Readable plain text for simple LaTeX: symbols to Unicode, fractions to a/b."""
    tex = _TEX_TEXT.sub(r"\1", tex)
    for _ in range(3):  # nested fractions, innermost first
        tex = _TEX_FRAC.sub(r"(\1) / (\2)", tex)
    tex = _TEX_COMMAND.sub(lambda m: _TEX_SYMBOLS.get(m.group(0), m.group(0).lstrip("\\")), tex)
    tex = tex.replace("{", "").replace("}", "").replace("_", "_")
    return " ".join(tex.split())


def _html_inline(text: str) -> str:
    """Distill and plain HTML inside Markdown to Markdown."""
    text = _CITE.sub("", text)
    text = _FOOTNOTE.sub(lambda m: " (" + _html_inline(m.group("text")).strip() + ")", text)
    text = _ANCHOR.sub(lambda m: _link(m.group("text"), m.group("href")), text)
    text = re.sub(r"</?(?:b|strong)>", "**", text)
    text = re.sub(r"</?(?:i|em)>", "*", text)
    text = re.sub(r"<br\s*/?>", " ", text)
    text = _TAG.sub("", text)
    return html.unescape(text)


def _link(text: str, href: str) -> str:
    # Only absolute links survive: relative ones point into a repository
    # or site this corpus does not contain.
    return f"[{text}]({href})" if href.startswith(("http://", "https://")) else text


def _figure(caption: str, label: str) -> str:
    caption = " ".join(_html_inline(caption).split())
    caption = re.sub(r"^\*\*(Figure|图)[:：]\*\*\s*", "", caption)
    return f"*{label}{caption}*" if caption else ""


def _inline(text: str, labels: dict[str, str]) -> str:
    """Rewrite one paragraph of Markdown outside code spans."""
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for i, part in enumerate(parts):
        if i % 2:  # a code span
            out.append(part)
            continue
        part = _LIQUID_FIGURE.sub(lambda m: _figure(dict(_LIQUID_ATTR.findall(m.group("attrs"))).get("caption", ""), labels["figure"]), part)
        part = _LIQUID_DETAILS.sub(lambda m: f"**{labels['answer']}**", part)
        part = _LIQUID_OTHER.sub("", part)
        part = _html_inline(part)
        part = _IMAGE.sub(lambda m: _figure(m.group("alt") if not re.search(r"\.(png|jpe?g|gif|svg)$", m.group("alt")) else "", labels["figure"]), part)
        part = _LINK.sub(lambda m: _link(m.group("text"), m.group("href")), part)
        part = _DISPLAY_MATH.sub(lambda m: tex_to_text(m.group("tex")), part)
        part = _INLINE_MATH.sub(lambda m: tex_to_text(m.group("tex")), part)
        out.append(part)
    return "".join(out)


def _myst_options(lines: list[str]) -> tuple[dict[str, str], list[str]]:
    """Split a MyST directive body into its options and its content."""
    options: dict[str, str] = {}
    if lines and lines[0].strip() == "---":
        end = lines.index("---", 1) if "---" in lines[1:] else 0
        for line in lines[1:end]:
            if ":" in line:
                key, value = line.split(":", 1)
                options[key.strip()] = value.strip()
        return options, lines[end + 1:]
    while lines and re.match(r"^:[\w-]+:", lines[0]):
        key, _, value = lines[0][1:].partition(":")
        options[key] = value.strip()
        lines = lines[1:]
    return options, lines


def _list_table(title: str, body: list[str]) -> str:
    options, content = _myst_options(body)
    rows: list[list[str]] = []
    for line in content:
        stripped = line.strip()
        if stripped.startswith("*") and not stripped.startswith("**"):
            rows.append([])
            rest = stripped[1:].strip()
            if rest.startswith("- "):
                rows[-1].append(rest[2:])
        elif stripped.startswith("- ") and rows:
            rows[-1].append(stripped[2:])
        elif stripped and rows and rows[-1]:
            rows[-1][-1] += " " + stripped
    header_rows = int(options.get("header-rows", "0") or 0)
    header = rows[0] if header_rows else [""] * len(rows[0])
    table = pipe_table(header, rows[header_rows:])
    return (f"*{title}*\n\n" if title else "") + table


def _myst_block(info: str, content: str, labels: dict[str, str]) -> str | None:
    directive, _, argument = info.partition("}")
    name = directive.lstrip("{").strip()
    lines = content.rstrip("\n").split("\n")
    if name == "figure":
        _, caption = _myst_options(lines)
        return _figure(" ".join(caption), labels["figure"])
    if name == "list-table":
        return _list_table(argument.strip(), lines)
    if name in {"note", "tip", "important", "warning", "admonition"}:
        _, text = _myst_options(lines)
        return "\n".join(text)
    return None


def curate_markdown(text: str, labels: dict[str, str]) -> str:
    """Markdown body (without the article title) of a Markdown source."""
    text = _FRONT_MATTER.sub("", text, count=1)
    lines = text.split("\n")
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    replacements: dict[int, tuple[int, str | None]] = {}
    for token in tokens:
        if token.type == "fence" and token.map:
            start, end = token.map
            if token.info.startswith("{"):
                replacements[start] = (end, _myst_block(token.info, token.content, labels))
            else:
                replacements[start] = (end, "\n".join(lines[start:end]))  # code: verbatim
    blocks: list[str] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            blocks.append(_inline("\n".join(paragraph), labels))
            paragraph.clear()

    i = 0
    while i < len(lines):
        if i in replacements:
            flush()
            end, replacement = replacements[i]
            if replacement:
                blocks.append(replacement)
            i = end
            continue
        line = lines[i].rstrip()
        if line.strip():
            paragraph.append(line)
        else:
            flush()
        i += 1
    flush()
    blocks = [b.strip("\n") for b in blocks if b.strip()]
    # A Liquid details tag becomes an "Answer" label; drop it where the source already labels the answer.
    label = f"**{labels['answer']}**"
    blocks = [b for i, b in enumerate(blocks) if not (b == label and i + 1 < len(blocks) and blocks[i + 1].startswith(label))]
    return _normalize_headings("\n\n".join(blocks))


def _normalize_headings(body: str) -> str:
    """Drop a leading H1 (the catalog gives the title) and start sections at level 2."""
    lines = body.split("\n")
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    heading_at: dict[int, re.Match] = {}
    in_code = False
    for number, line in enumerate(lines):
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (match := _HEADING.match(line)):
            heading_at[number] = match
    shift = min((len(m.group(1)) for m in heading_at.values()), default=2) - 2
    for number, match in heading_at.items():
        lines[number] = "#" * max(2, len(match.group(1)) - shift) + " " + match.group(2).strip()
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
