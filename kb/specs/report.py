"""What the fact readers made of the corpus: ``kb specs --coverage`` and ``kb specs --candidates``.

The coverage report counts every number-with-unit statement about a named entity, in prose
(``kb.specs.prose`` records each one it meets) and in tables (every numeric cell of a row or
column that names an entity), and says what became of it:

- ``fact``: it answers spec questions (table cells, prose readings sure enough, relations);
- ``candidate``: a prose reading with a doubt (a rival entity, an entity named only earlier, a
  table that says otherwise), listed for curators by ``kb specs --candidates``;
- ``skipped``: not read, with the reason. A reason is a *judgement* when the statement is not a
  specification of the entity (a share, a difference, a worked exercise, a figure about a memory
  type), and *unresolved* when the reader could not decide (no cue says which attribute, a table
  nobody mapped): unresolved statements are the readers' gaps, and count against the target.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from kb.models import Article
from kb.specs.facts import FactTable
from kb.specs.prose import label_table, read_prose
from kb.specs.tables import label_text, label_unit, parse_cell, tables_in

COVERAGE_TARGET = 0.90
_SHAPE = re.compile(r"^\d+(?:\s*[x×]\s*\d+)+$")
# Skip reasons that judge a statement not to be a specification of the entity it sits beside.
JUDGEMENTS = ("a share or a difference", "a worked exercise", "no entity of the fact table is named",
              "money without a period", "a relation whose two sides or attribute are not named", "links of a part or between two parts",
              "a figure set aside", "a figure of each of a chip's parts", "dies of a memory stack")


def table_statements(article: Article, table: FactTable) -> list[dict]:
    """Every numeric cell of a table row or column that names an entity, and whether a fact reads it."""
    vocabulary = table.vocabulary
    read_rows = {(f.source.article_id, f.source.char_start): f for f in table.facts if f.source.origin == "table"}
    cited = {(f.source.article_id, f.source.char_start, f.value_text) for f in table.facts if f.source.origin == "table"}
    out = []
    for located in tables_in(article):
        t = located.table
        if label_table(t, vocabulary):
            continue  # its cells are sentences: the prose reader counts them
        header = [label_text(c.text) for c in t.header.cells]
        any_read = any((article.meta.id, row.start) in read_rows for row in t.rows)
        for row in t.rows:
            row_entity = vocabulary.entity_in(label_text(row.cells[0].text)) if row.cells else None
            for j, cell in enumerate(row.cells[1:], start=1):
                col_label = header[j] if j < len(header) else ""
                col_entity = vocabulary.entity_in(col_label) if col_label else None
                entity = (row_entity or col_entity or (None,))[0]
                parsed = parse_cell(cell.text)
                label = col_label if row_entity else label_text(row.cells[0].text)
                if entity is None or parsed is None or parsed.value is None or not (parsed.unit or label_unit(label)) \
                        or _SHAPE.match(label_text(cell.text)):
                    continue  # no number with a unit: a version, a shape or topology ("4x2"), a note
                if (article.meta.id, row.start, cell.text) in cited:
                    outcome, reason = "fact", "table cell"
                elif not any_read:
                    outcome, reason = "skipped", "a table tables.yaml does not map"
                elif vocabulary.header_attribute(label) is None:
                    outcome, reason = "skipped", "its label names no attribute of attributes.yaml"
                else:
                    outcome, reason = "skipped", "a cell the table reading leaves out"
                out.append({"article": article.meta.id, "origin": "table", "start": cell.start, "end": cell.end,
                            "quantity": cell.text.strip(), "entity": entity, "outcome": outcome, "reason": reason})
    return out


def _kind(statement: dict) -> str:
    if statement["outcome"] != "skipped":
        return statement["outcome"]
    return "judged" if statement["reason"].startswith(JUDGEMENTS) else "unresolved"


def coverage(corpus_dir: Path, articles: list[Article], table: FactTable) -> dict:
    statements = []
    for article in articles:
        _, _, _, read = read_prose(article, table.vocabulary, corpus_dir)
        statements += [{"article": s.article, "origin": "prose", "start": s.start, "end": s.end,
                        "quantity": s.quantity, "entity": s.entity, "attribute": s.attribute,
                        "outcome": "fact" if s.outcome == "relation" else s.outcome, "reason": s.reason}
                       for s in read]
        statements += table_statements(article, table)
    for s in statements:
        s["kind"] = _kind(s)
    kinds = Counter(s["kind"] for s in statements)
    total = len(statements)
    reasons = Counter((s["kind"], re.sub(r"\s*\(.*$", "", s["reason"])) for s in statements if s["kind"] != "fact")
    by_origin = {o: dict(Counter(s["kind"] for s in statements if s["origin"] == o)) for o in ("table", "prose")}
    accounted = total - kinds["unresolved"]
    return {"statements": total, "kinds": dict(kinds), "by_origin": by_origin,
            "accounted": round(accounted / total, 4) if total else 1.0, "target": COVERAGE_TARGET,
            "reasons": [{"kind": k, "reason": r, "count": n} for (k, r), n in reasons.most_common()],
            "unresolved": [s for s in statements if s["kind"] == "unresolved"]}


def coverage_markdown(report: dict) -> str:
    k = report["kinds"]
    met = "met" if report["accounted"] >= report["target"] else "not met"
    lines = ["# Spec coverage", "",
             "Every number-with-unit statement about a named entity in the corpus, and what the fact readers made "
             "of it (`kb specs --coverage`; see kb/specs/report.py).", "",
             f"- statements: {report['statements']} (tables {sum(report['by_origin']['table'].values())}, "
             f"prose {sum(report['by_origin']['prose'].values())})",
             f"- facts (incl. relations): {k.get('fact', 0)}",
             f"- candidates for curators: {k.get('candidate', 0)}",
             f"- skipped, judged not a specification: {k.get('judged', 0)}",
             f"- skipped, unresolved: {k.get('unresolved', 0)}",
             f"- facts, candidates or judged skips: {report['accounted']:.1%} (target {report['target']:.0%}: {met})",
             "", "| outcome | reason | statements |", "| --- | --- | --- |"]
    lines += [f"| {r['kind']} | {r['reason']} | {r['count']} |" for r in report["reasons"]]
    return "\n".join(lines) + "\n"


def candidates_rows(table: FactTable) -> list[dict]:
    return [{"entity": c.entity, "attribute": c.attribute, "value": c.value, "unit": c.unit, "value_text": c.value_text,
             "confidence": c.confidence, "doubt": c.note, "location": c.source.location, "quote": c.source.quote}
            for c in table.candidates]
