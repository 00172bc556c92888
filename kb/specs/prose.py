"""Facts read from prose: every sentence that states a quantity about a named entity.

For each quantity of a sentence (``kb.specs.quantities``) the reader decides three things, each by a rule that
holds for any article. A table whose rows pair a label with a sentence ("| Device memory | 144 GiB of device
memory, with 4.9 TB/sec of bandwidth. |") is read as sentences too: the line that leads into it names the
entity, the row's label is a cue of last resort.

- the attribute (``kb.specs.attribution``): among the attributes measured in the quantity's dimension, the one
  whose cue (a question cue or a table-header pattern of ``attributes.yaml``) is written nearest to the number in
  its clause, or the counted noun itself ("cores" of NeuronCores, "CUs"), or the one a table cell's label or a
  list item's term names ("* **VMEM** ... 128 MiB"), or the only attribute of that dimension ("W", "nm", "mm²");
- the entity: the entity of the fact table named nearest before the number in its clause (a clause opened by
  "and" that names nothing goes on the one before), else in the sentence, else after it; not the thing counted
  ("16 Trainium2 chips" is a count of the instance's chips); a chip's hourly price is its instance's, and a
  figure of a machine (local storage) the one instance's or system's the sentence names;
- whether the statement is relative ("60% lower than P4d", "2-3x faster than A100"): those become relations
  (``kb.specs.relations``), not values.

A statement whose entity and attribute are both decided without a rival becomes a fact (``origin: prose``); one
with a rival, a guess or a missing part is a candidate for curators (``kb specs --candidates``), with the reason;
every other quantity next to an entity is recorded as skipped, with the reason, for the coverage report (``kb specs
--coverage``), a figure of each of a chip's parts too ("40 CUs, each with 32 KB": no scope is one CU).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from kb.markdown import parse_article
from kb.models import Article
from kb.sentences import sentence_spans
from kb.specs import dates
from kb.specs.attribution import COUNTED, attribute_of
from kb.specs.clauses import (
    BIDIRECTIONAL,
    EACH_PART,
    PART_SUMMED,
    PARTS,
    PLANNED,
    SUBJECT_KINDS,
    THE_CHIP,
    and_joined,
    beside,
    built_into,
    clause,
    hourly_instance,
    item_term,
    machine_of,
    may_hold,
    of_another_chip,
    part_topic,
    qualifiers,
)
from kb.specs.model import Fact, FactSource
from kb.specs.quantities import Quantity, elided_count, quantities
from kb.specs.relations import RELATIONS, Relation, continued, read_relation
from kb.specs.tables import file_line, label_text
from kb.specs.units import UNITS, convert, rebase
from kb.specs.vocabulary import Mention, Vocabulary
from kb.tables import PROSE_CELL_WORDS, Table
from kb.textnorm import normalize_for_matching, normalize_keeping_offsets

EACH = re.compile(r"\b(?:each|every)\b|(?<![а-яё])кажд\w*|每", re.IGNORECASE)
POSSESSIVE = re.compile(r"['’]s\s*")  # "B200's 296TFLOPS"
OPENING = " *_`([#>-"  # what may stand before a sentence's first word (Markdown marks, a bracket)
# what stands between a machine's name and a bracket that glosses what it holds ("P4d实例（", "p4d.24xlarge (")
GLOSS = re.compile(r"\s*(?:instances?|servers?|nodes?|инстанс\w*|сервер\w*|узл\w*|实例|服务器|节点)?\s*[（(]\s*",
                   re.IGNORECASE)
HOLDERS = ("instance", "system")
NEAR = 40  # an entity named this close before a number, alone in the clause, is what the number is about
CARRY = 600  # characters: how far the entity of a sentence carries to the sentences after it that name none
# How sure a prose reading is: by what named the attribute, less for a rival entity in the sentence or an
# entity named only in the sentences before. Facts at FACT_CONFIDENCE or above answer; the rest are candidates.
CONFIDENCE = {"cue": 0.9, "counted": 0.9, "label": 0.8, "unit": 0.8, "guess": 0.4}
# An entity carried from a lead-in line ("H100 has:" before a list) is nearly as sure as one in the sentence;
# one carried from earlier sentences of a paragraph often is not ("its consumer GPUs use 8nm").
RIVAL, CARRIED_LEAD_IN, CARRIED = 0.4, 0.1, 0.3
FACT_CONFIDENCE = 0.7
# A candidate this sure (its attribute cued, only its entity in doubt) keeps a question about that fact from
# being declined: its sentence is quoted as the answer, its value never stated as the table's.
EVIDENCE_CONFIDENCE = 0.5
# "14GiB extra", "2x everything": a difference or a multiple, not the value itself
DIFFERENCE = re.compile(r"^\s*(?:of\s+)?(?:\w+\s+)?(?:extra|more|less|additional|fewer|higher|lower|faster|slower)\b", re.IGNORECASE)
# A figure set aside for the one stated ("not 1750 but 1600"): no value, but the planned one if said so ("not the planned")
SET_ASIDE = re.compile(r"\b(?:not|instead of|rather than)\s+(?:the\s+|an?\s+)?(?:(?:originally\s+)?(?:planned|promised|"
                       r"claimed|advertised|announced|expected|rumou?red|specified)\s+)?$|"
                       r"(?<![а-яё])(?:а не|вместо)\s+(?:(?:заявленн|планируем|обещанн|ожидаем)\w*\s+)?$|"
                       r"(?:而不是|而非)\s*(?:计划|原定|预期|宣称|宣传)?的?\s*$", re.IGNORECASE)
EXERCISE = re.compile(r"\bquestion \d|\bsay you want|\banswer:|问题\s*\d|假设|задач\w* \d", re.IGNORECASE)


@dataclass(frozen=True)
class Statement:
    """One quantity next to a named entity, and what became of it."""

    article: str
    start: int  # of the quantity in the article body
    end: int
    sentence: tuple[int, int]
    quantity: str
    entity: str | None
    attribute: str | None
    outcome: str  # fact | candidate | relation | skipped
    reason: str


def _entity(text: str, q: Quantity, mentions: list[Mention], vocabulary: Vocabulary,
            attribute: str | None = None) -> tuple[str | None, str]:
    """The entity a quantity is about, and a doubt ("" when there is none)."""
    mentions = [m for m in mentions if not of_another_chip(text, m, mentions, vocabulary)]
    if owner := next((m for m in mentions if POSSESSIVE.fullmatch(text, m.end, q.start)  # "against B200's 296TFLOPS"
                      and vocabulary.entities[m.entity].kind in SUBJECT_KINDS), None):
        return owner.entity, ""  # the figure right after a possessive is its owner's
    if q.counted == "chips" and (holder := next((m for m in mentions if GLOSS.fullmatch(text, m.end, q.start)
                                                 and vocabulary.entities[m.entity].kind in HOLDERS), None)):
        return holder.entity, ""  # "P4d实例（8个英伟达A100 GPU）": chips glossed in brackets after a machine are its own
    nearest = max((m for m in mentions if m.end <= q.start), key=lambda m: m.end, default=None)
    if nearest is not None and built_into(text, nearest, vocabulary):
        return None, "a figure of a system built of the chip (\"HGX B200 platform\"), not of the chip"
    subjects = [m for m in mentions if vocabulary.entities[m.entity].kind in SUBJECT_KINDS
                and not beside(text, m, vocabulary)]
    # "16 Trainium2 chips": the chip is what is counted, not what has them (a pod's or host's chips are the chip's)
    if q.counted == "chips" and attribute in COUNTED.values():
        counted = [m for m in subjects if q.end - len(q.unit_text) <= m.start < q.end]
        subjects = [m for m in subjects if m not in counted and vocabulary.entities[m.entity].kind != "chip"
                    and may_hold(vocabulary.entities[m.entity], {c.entity for c in counted}, vocabulary)]
    if not subjects:
        return None, "no entity of the fact table is named in its sentence"
    if attribute and (machine := machine_of(vocabulary.attributes[attribute], subjects, vocabulary)):
        return machine, ""  # "DL1 instances ... 8 Gaudi processors ... 4TB of NVMe storage": the instance's
    left, right = clause(text, q.start, q.end)
    left = left if any(left <= m.start < q.start for m in subjects) else and_joined(text, left, subjects)
    if len({m.entity for m in subjects}) == 1:  # a sentence about one thing: every figure in it is about it,
        # unless the thing is named only after the figure, in another clause ("16nm now, 7nm for Gaudi2")
        if subjects[0].start < q.start or subjects[0].start < right:
            return subjects[0].entity, ""
        return subjects[0].entity, "named only after it, in another clause"
    before = [m for m in subjects if m.end <= q.start]
    in_clause = [m for m in before if m.start >= left]
    if in_clause and len({m.entity for m in subjects if left <= m.start < right}) == 1 and \
            q.start - in_clause[-1].end <= NEAR:
        return in_clause[-1].entity, ""  # named just before it, alone in its clause
    if before and q.start - before[-1].end <= NEAR and EACH.search(text[max(0, before[-1].start - 8):q.start]):
        return before[-1].entity, ""  # "16 Trainium chips (each Trainium include 2 NeuronCores)": each of the nearest
    if len({m.entity for m in before}) == 1 and not text[:before[0].start].strip(OPENING):
        # the sentence's subject, the only thing named before the figure: others named after it, in later
        # clauses, are not what it is about ("MI350X is the same silicon at 2200MHz and 1000W, ... MI355X")
        return before[0].entity, ""
    if in_clause:
        best = in_clause[-1]
    elif before:
        best = before[-1]
    else:
        after = [m for m in subjects if q.end <= m.start < right]
        best = after[0] if after else None
    if best is None:
        return None, "several entities in its sentence, none in its clause"
    return best.entity, f"several entities in its sentence ({', '.join(sorted({m.entity for m in subjects}))})"


def _subjects(text: str, mentions: list[Mention], vocabulary: Vocabulary) -> set[str]:
    """The entities a sentence may be about: those of a subject kind, not on the far side of a comparison."""
    return {m.entity for m in mentions if vocabulary.entities[m.entity].kind in SUBJECT_KINDS
            and not beside(text, m, vocabulary)}


def _subject_of(text: str, mentions: list[Mention], vocabulary: Vocabulary) -> str | None:
    """The one entity a sentence is about, when it names exactly one (else None)."""
    named = _subjects(text, mentions, vocabulary)
    return named.pop() if len(named) == 1 else None


def label_table(table: Table, vocabulary: Vocabulary) -> bool:
    """Whether a table is a list of labelled sentences ("| Device Memory | 96 GiB of device memory with 2.9
    TB/sec of bandwidth. |"): two columns, no label naming an entity, and sentences, not values, beside them."""
    rows = [r for r in table.rows if r.quotable()]
    if not rows or any(len(r.cells) != 2 or vocabulary.entity_in(label_text(r.cells[0].text)) for r in rows):
        return False
    return sum(len(r.cells[1].text.split()) >= PROSE_CELL_WORDS for r in rows) * 2 > len(rows)


@dataclass
class _Reading:
    """What the sentences of one article state: the four lists ``read_prose`` returns."""

    article: Article
    vocabulary: Vocabulary
    corpus_dir: Path
    facts: list[Fact] = field(default_factory=list)
    candidates: list[Fact] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    title_subject: str | None = None  # the one entity the article's title names, if it names one
    elided: tuple[str, str, str] | None = None  # what the last line's count counts, for a line that leaves it out

    def about_title(self, entity: str) -> bool:
        """Whether ``entity`` is the one the article's title names, or a member of that series."""
        return self.title_subject is not None and self.title_subject in (entity, self.vocabulary.entities[entity].family)

    def sentence(self, s: int, e: int, mentions: list[Mention], carried: tuple[str, int] | None, lead_in: bool,
                 anchor: str, label: str = "", titled: bool = False, part: str | None = None) -> None:
        """Read the sentence ``body[s:e]``. ``carried``: the entity of the lines before, and where its quote
        starts, for a sentence that names none (``titled``: named only in the article's title); ``label``: the
        label of a table cell or the term of a list item, a cue of last resort; ``part``: the part of a chip its
        paragraph is about (``kb.specs.clauses.part_topic``), the scope of a carried entity's figures."""
        article, vocabulary, corpus_dir = self.article, self.vocabulary, self.corpus_dir
        text, lang = article.body[s:e], article.meta.lang
        spans = []  # a relation is read as a whole: its factor is no value of its own
        for m in (m for pattern in RELATIONS for m in pattern.finditer(text)):
            rel = read_relation(text, m, mentions, vocabulary, lang, _source(article, s, e, anchor, corpus_dir),
                                self.title_subject)
            spans.append((m.start(), m.end()))
            self.statements.append(Statement(
                article=article.meta.id, start=s + m.start(), end=s + m.end(), sentence=(s, e), quantity=m.group(0),
                entity=rel.subject if rel else None, attribute=rel.attribute if rel else None,
                outcome="relation" if rel else "skipped",
                reason="relative to another entity" if rel else "a relation whose two sides or attribute are not named"))
            if rel:
                self.relations += [rel, *continued(text, rel, m.end())]
        named = _subjects(text, mentions, vocabulary)
        counts = quantities(text, self.elided)
        self.elided = elided_count(counts, self.elided)
        found = _restated([(q, *attribute_of(text, q, vocabulary, lang, mentions, label)) for q in counts
                           if not any(a <= q.start < b for a, b in spans)], text)
        for q, attribute, why in found:
            statement = dict(article=article.meta.id, start=s + q.start, end=s + q.end, sentence=(s, e),
                             quantity=text[q.start:q.end])
            borrowed = not named and carried is not None
            if borrowed:  # "H100 has: - 528 Tensor Cores": the entity of the lines before
                (entity, quote_start), who = carried, ""
            else:
                entity, who = _entity(text, q, mentions, vocabulary, attribute)
                quote_start = s

            skipped, fact, aside = None, None, None
            if q.unit == "%" or DIFFERENCE.match(text[q.end:q.end + 24]):
                skipped = "a share or a difference, not a value"
            elif (aside := SET_ASIDE.search(text, 0, q.start)) and not PLANNED.search(f"{aside[0]} {text[q.end:q.end + 30]}"):
                skipped = "a figure set aside for the one stated (\"not 1,750 but 1,600\")"
            elif EACH_PART.search(text, 0, q.start):
                skipped = "a figure of each of a chip's parts (\"40 CUs, each with 32 KB\"), which no scope holds"
            elif attribute is None or entity is None:
                skipped = why if attribute is None else who
            else:
                entity = hourly_instance(entity, attribute, vocabulary)
                fact = _fact(entity, attribute, q, text, article, quote_start, e, anchor, corpus_dir, vocabulary,
                             s + q.start if quote_start != s else None, part if borrowed else None)
                if fact is None:
                    skipped = f"{q.unit} is not a unit of {attribute}"
                elif aside:  # the planned or advertised figure ("not the planned 1750MHz"): another quantity
                    fact = fact.model_copy(update={"basis": "planned"})
                if fact is not None and EXERCISE.search(text):
                    skipped = "a worked exercise, not a specification"
            if skipped is not None:
                self.statements.append(Statement(**statement, entity=entity, attribute=attribute, outcome="skipped",
                                                 reason=skipped))
                continue
            confidence = CONFIDENCE[why] - (RIVAL if who else 0)
            # A figure stated for a named part of the chip ("per XCD") is of that part of the article's chip, when
            # it is the sentence's only figure of its attribute ("40 CUs: 38 active and 2 disabled" is a breakdown).
            of_part = fact.scope in PARTS and self.about_title(entity) and sum(a == attribute for _, a, _ in found) == 1
            if borrowed:  # the paragraph's entity is surer when it is what the article is about
                # named only in the title, the chip is sure where the sentence refers back to it ("the processor")
                sure = of_part or (THE_CHIP.search(text) is not None if titled else lead_in or self.about_title(entity))
                confidence -= CARRIED_LEAD_IN if sure else CARRIED
            reason = who or (("named only in the article's title" if titled else
                              "named in the line that leads into the list or table" if lead_in else
                              "named only in the sentences before") if borrowed else why)
            if why == "guess":
                reason = f"no cue says which attribute of {q.unit}; {attribute} is a guess"
                who = who or reason
            if attribute == COUNTED["chips"] and vocabulary.entities[entity].kind == "chip":
                # "... to form a fully connected 8-GPU system": the machine's count, never the chip's fact
                reason = who = "chips counted of a chip: a machine's count, for curators"
                confidence = min(confidence, FACT_CONFIDENCE - 0.01)
            fact = fact.model_copy(update={"confidence": round(confidence, 2)} | ({"note": who} if who else {}))
            outcome = "fact" if confidence >= FACT_CONFIDENCE else "candidate"
            (self.facts if outcome == "fact" else self.candidates).append(fact)
            self.statements.append(Statement(**statement, entity=entity, attribute=attribute, outcome=outcome,
                                             reason=reason))
        if dates.ATTRIBUTE in vocabulary.attributes and not EXERCISE.search(text):
            for fact in dates.date_facts(text, mentions, vocabulary, article.meta.as_of or article.meta.published,
                                         lambda at: _source(article, s, e, anchor, corpus_dir, s + at),
                                         CONFIDENCE["cue"], RIVAL):
                (self.facts if fact.confidence >= FACT_CONFIDENCE else self.candidates).append(fact)


# A rate said for both directions right after its one-way figure, joined by "or" ("200 GB/sec peak transfer
# bandwidth between the two GCDs, or a bidirectional peak transfer bandwidth of 400 GB/sec"): the same
# attribute on the other basis, so twice the figure; any other figure after "or" ("or 50 GB/s per link", "or
# 94 GB in the NVL version") is a figure of its own.
_RESTATED = re.compile(r"[^.;:]{0,80}?(?:,\s*or\b|\(\s*or\b|，?或者?|,\s*или\b|\(\s*или\b)[^.;:,]{0,60}$", re.IGNORECASE)


def _restated(found: list[tuple], text: str) -> list[tuple]:
    """``found`` with a rate no cue names given the attribute of the cued rate it restates for both directions
    (see ``_RESTATED``)."""
    out = list(found)
    for k, (q, attribute, why) in enumerate(found):
        if (why != "guess" and attribute is not None) or q.unit not in UNITS or UNITS[q.unit].dimension != "bytes/s":
            continue
        before = [(p, a) for p, a, w in out[:k] if w == "cue" and p.unit in UNITS and
                  UNITS[p.unit].dimension == "bytes/s"]
        if not before:
            continue
        p, a = before[-1]
        twice = convert(q.value, q.unit, p.unit)
        if _RESTATED.fullmatch(text, p.end, q.start) and BIDIRECTIONAL.search(text, p.end, q.end + 40) and \
                twice is not None and abs(twice - 2 * p.value) < 1e-6 * max(1.0, p.value):
            out[k] = (q, a, "cue")
    return out


def read_prose(article: Article, vocabulary: Vocabulary, corpus_dir) -> tuple[list[Fact], list[Fact], list[Relation],
                                                                              list[Statement]]:
    """(facts, candidates, relations, statements) of one article's prose sentences, and of the sentence cells of
    its label/value tables, whose entity is the one of the line that leads into the table."""
    sections, blocks = parse_article(article)
    body = article.body
    title = normalize_for_matching(article.meta.title)
    reading = _Reading(article, vocabulary, corpus_dir, title_subject=_subject_of(title, vocabulary.mentions(title),
                                                                                  vocabulary))
    carried: tuple[str, int] | None = None  # (entity, where its sentence starts) of the sentences before
    lead_in = False  # whether ``carried`` comes from a line that leads into this block ("H100 has:")
    section = -1
    for block in blocks:
        if block.section_index != section:
            carried, lead_in, section, reading.elided = None, False, block.section_index, None
        anchor = sections[block.section_index].anchor
        if block.kind == "table" and block.table and label_table(block.table, vocabulary):
            lead = carried[0] if carried and lead_in else None
            for row in block.table.rows:
                if len(row.cells) < 2 or not row.quotable():
                    continue
                label, cell = label_text(row.cells[0].text), row.cells[1]
                for s, e in sentence_spans(body, cell.start, cell.end):
                    norm = normalize_keeping_offsets(body[s:e])
                    reading.sentence(s, e, vocabulary.mentions(norm), (lead, s) if lead else None, True, anchor,
                                     label)
        if block.kind != "prose":
            carried, lead_in = None, False
            continue
        topic = None  # the part of a chip the paragraph is about, so far
        for s, e in sentence_spans(body, block.char_start, block.char_end):
            text = body[s:e]
            norm = normalize_keeping_offsets(text)  # "Infinity Fabric™ links" is read too
            mentions = vocabulary.mentions(norm)
            named = _subjects(text, mentions, vocabulary)
            # a sentence that names a chip starts over: only a part it names itself is the topic after it
            topic = part_topic(text, None if named else topic)
            subject = next(iter(named)) if len(named) == 1 else None
            # a sentence that names only the far side of a comparison ("..., 40% more than MI250X") names
            # nothing it is about: its figures are the paragraph's, as in a sentence naming nothing
            mentions_named = bool(mentions) and (bool(named) or any(
                vocabulary.entities[m.entity].kind not in SUBJECT_KINDS for m in mentions))
            if mentions_named and subject is None:
                carried = None  # several things named: what follows is about none of them in particular
            elif subject is not None:
                carried, lead_in = (subject, s), False
            elif carried and s - carried[1] > CARRY:
                carried = None
            if mentions_named or carried is not None:
                reading.sentence(s, e, mentions, carried, lead_in, anchor, item_term(body, block.char_start, s),
                                 part=topic)
            elif reading.title_subject:  # naming nothing, after nothing named: the article's subject, unsurely
                reading.sentence(s, e, mentions, (reading.title_subject, s), False, anchor,
                                 item_term(body, block.char_start, s), titled=True, part=topic)
        lead_in = carried is not None and body[block.char_start:block.char_end].rstrip().endswith((":", "："))
        if not lead_in:
            carried = None  # only a lead-in line ("H100 has:") lends its entity to the block after it
    return reading.facts, reading.candidates, reading.relations, reading.statements


def _source(article: Article, s: int, e: int, anchor: str, corpus_dir, value_start: int | None = None) -> FactSource:
    return FactSource(article_id=article.meta.id, title=article.meta.title, url=article.meta.source.link(),
                      anchor=anchor, char_start=s, char_end=e, quote=article.body[s:e], origin="prose",
                      location=file_line(corpus_dir, article, value_start or s), value_start=value_start)


def _fact(entity: str, attribute: str, q: Quantity, text: str, article: Article, s: int, e: int, anchor: str,
          corpus_dir, vocabulary: Vocabulary, value_start: int | None = None, part: str | None = None) -> Fact | None:
    target = vocabulary.attributes[attribute].unit
    if convert(q.value, q.unit, target) is None:
        return None
    value, decimals, unit = rebase(q.value, q.decimals, q.unit, target)  # as written, unless in a base unit
    dtype, basis, scope = qualifiers(text, q.start, q.end, q.unit_text, UNITS[target].dimension)
    scope = scope or (part if UNITS[target].dimension in PART_SUMMED else None)
    return Fact(entity=entity, attribute=attribute, value=value, unit=unit, decimals=decimals,
                value_text=q.number_text, approx=q.approx, bound=q.bound, dtype=dtype or None,
                basis=basis, scope=scope,
                as_of=article.meta.as_of or article.meta.published,
                source=_source(article, s, e, anchor, corpus_dir, value_start))
