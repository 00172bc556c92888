"""Facts read from prose: every sentence that states a quantity about a named entity.

For each quantity of a sentence (``kb.specs.quantities``) the reader decides
three things, each by a rule that holds for any article:

- the attribute: among the attributes measured in the quantity's dimension,
  the one whose cue (a question cue or a table-header pattern of
  ``attributes.yaml``) is written nearest to the number in its clause, or
  the counted noun itself ("cores" of NeuronCores, "CUs"), or the only
  attribute of that dimension ("W", "nm", "mm²");
- the entity: the entity of the fact table named nearest before the number
  in its clause (else in the sentence, else after it), not the thing counted
  ("16 Trainium2 chips" is a count of the instance's chips); a chip's hourly
  price is its instance's;
- whether the statement is relative ("60% lower than P4d", "2-3x faster than
  A100"): those become relations, not values.

A statement whose entity and attribute are both decided without a rival
becomes a fact (``origin: prose``); one with a rival, a guess or a missing
part is a candidate for curators (``kb specs --candidates``), with the reason;
every other quantity next to an entity is recorded as skipped, with the reason,
for the coverage report (``kb specs --coverage``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kb.markdown import parse_article
from kb.models import Article
from kb.sentences import sentence_spans
from kb.specs.model import Fact, FactSource
from kb.specs.quantities import Quantity, quantities
from kb.specs.tables import DTYPE, file_line
from kb.specs.units import UNITS, convert, rebase
from kb.specs.vocabulary import Mention, Vocabulary
from kb.textnorm import normalize_for_matching

CLAUSE = re.compile(r"[,，;；:：]|\s-\s|\s—\s| and | but | which |，而|，并")  # an aside in brackets stays in its clause
WINDOW = 48  # characters around a number that its attribute cue may stand in
EACH = re.compile(r"\b(?:each|every)\b|(?<![а-яё])кажд\w*|每", re.IGNORECASE)
OPENING = " *_`([#>-"  # what may stand before a sentence's first word (Markdown marks, a bracket)
NEAR = 40  # an entity named this close before a number, alone in the clause, is what the number is about
# A relation: a factor or share, a comparative word, then (in English and Russian) "than" and the other side.
_FACTOR = r"(?P<low>\d+(?:\.\d+)?)(?:\s*[-–/]\s*(?P<high>\d+(?:\.\d+)?))?\s*(?P<kind>%|x|×|times|раза?)"
RELATIONS = [
    re.compile(_FACTOR + r"\s+(?P<word>more|less|lower|higher|faster|slower|cheaper|better|larger|smaller|bigger)"
               r"(?:\s+\w+){0,3}?\s+than\s+", re.IGNORECASE),
    re.compile(r"(?:на|в)\s+" + _FACTOR + r"\s+(?P<word>дешевле|дороже|быстрее|медленнее|больше|меньше|выше|ниже)"
               r"(?:,?\s+чем\s+)?", re.IGNORECASE),
    re.compile(r"比(?P<other>前者|后者|[^，。,]{1,20}?)(?P<word>低|高|快|慢|便宜|贵|多|少)了?\s*" + _FACTOR),
]
LOWER_WORDS = ("less", "lower", "slower", "cheaper", "smaller", "дешевле", "медленнее", "меньше", "ниже", "低", "慢",
               "便宜", "少")
COUNTED = {"neuroncores": "neuron_cores", "tensor cores": "tensor_cores", "cuda cores": "cuda_cores",
           "compute units": "compute_units", "sms": "sm_count", "chips": "chip_count", "transistors": "transistor_count",
           "vcpus": "vcpus", "stream processors": "stream_processors"}
CARRY = 600  # characters: how far the entity of a sentence carries to the sentences after it that name none
# How sure a prose reading is: by what named the attribute, less for a rival entity in the sentence or an
# entity named only in the sentences before. Facts at FACT_CONFIDENCE or above answer; the rest are candidates.
CONFIDENCE = {"cue": 0.9, "counted": 0.9, "unit": 0.8, "guess": 0.4}
# An entity carried from a lead-in line ("H100 has:" before a list) is nearly as sure as one in the sentence;
# one carried from earlier sentences of a paragraph often is not ("its consumer GPUs use 8nm").
RIVAL, CARRIED_LEAD_IN, CARRIED = 0.4, 0.1, 0.3
FACT_CONFIDENCE = 0.7
# A candidate this sure (its attribute cued, only its entity in doubt) keeps a question about that fact from
# being declined: its sentence is quoted as the answer, its value never stated as the table's.
EVIDENCE_CONFIDENCE = 0.5
SUBJECT_KINDS = ("chip", "instance", "system")  # memory types and interconnects are rarely what a figure is about
MEASURED = re.compile(r"\b(?:clocked|measured|achieved|reached|benchmarked)\b|实测|измерен\w*|достиг\w*", re.IGNORECASE)
# "14GiB extra", "2x everything": a difference or a multiple, not the value itself
DIFFERENCE = re.compile(r"^\s*(?:of\s+)?(?:\w+\s+)?(?:extra|more|less|additional|fewer|higher|lower|faster|slower)\b", re.IGNORECASE)
# the other side of a comparison is never what a figure is about
COMPARED = re.compile(r"(?:than|compared (?:to|with)|versus|vs\.?|against|чем|比|相比)\s*(?:the\s+|an?\s+)?$", re.IGNORECASE)
PER_WORK = re.compile(r"\bper (?!hour|chip|gpu|card|instance|device)[a-z]+|每(?!小时)[^，。]{0,4}(?:图片|张|个样本)|"
                      r"за (?:изображени|картинк|токен)\w*", re.IGNORECASE)
EXERCISE = re.compile(r"\bquestion \d|\bsay you want|\banswer:|问题\s*\d|假设|задач\w* \d", re.IGNORECASE)
SPARSE = re.compile(r"sparsity|sparse|稀疏|разрежен", re.IGNORECASE)


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


@dataclass(frozen=True)
class Relation:
    """A stated relation: ``subject``'s ``attribute`` is ``ratio`` times ``object``'s (a range when two)."""

    subject: str
    object: str
    attribute: str
    ratio: tuple[float, float]
    direction: str  # the subject is "higher" or "lower"
    bound: str | None  # "at_least": the factor is more than written ("more than 2x cheaper")
    factor: str  # as written: "60%", "2-3x"
    source: FactSource


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    left = max((m.end() for m in CLAUSE.finditer(text, 0, start)), default=0)
    right = next((m.start() for m in CLAUSE.finditer(text, end)), len(text))
    return left, right


def _cued(text: str, q: Quantity, vocabulary: Vocabulary, lang: str,
          mentions: list[Mention] = ()) -> list[tuple[int, str]]:
    """(distance, attribute) of every attribute of the quantity's dimension cued near it, nearest first: by a
    cue, or by the name of an entity of a kind that names it ("HBM3e" for memory)."""
    dimension = UNITS[q.unit].dimension if q.unit in UNITS else None
    left, right = _clause(text, q.start, q.end)
    lo, hi = max(left, q.start - WINDOW), min(right, q.end + WINDOW)
    window = text[lo:hi].lower()
    found: dict[str, int] = {}
    for attr in vocabulary.attributes.values():
        if attr.unit not in UNITS or UNITS[attr.unit].dimension != dimension:
            continue
        patterns = [*attr.headers, *attr.cues.get("en", ()), *attr.cues.get(lang, ())]
        for pattern in patterns:
            for m in re.finditer(pattern.lstrip("^"), window):
                at = lo + m.start()
                distance = q.start - (lo + m.end()) if at < q.start else at - q.end
                found[attr.id] = min(found.get(attr.id, 10**6), max(distance, 0))
        for m in mentions:
            if vocabulary.entities[m.entity].kind in attr.named_by and lo <= m.start and m.end <= hi:
                distance = q.start - m.end if m.start < q.start else m.start - q.end
                found[attr.id] = min(found.get(attr.id, 10**6), max(distance, 0))
    return sorted((d, a) for a, d in found.items())


def _attribute(text: str, q: Quantity, vocabulary: Vocabulary, lang: str,
               mentions: list[Mention] = ()) -> tuple[str | None, str]:
    """The quantity's attribute and why (or why none)."""
    if q.counted:
        counted = COUNTED.get(q.counted)
        if counted is None:  # plain "cores": the words between say which
            cues = [a for _, a in _cued(q.unit_text + " " + text[_clause(text, q.start, q.end)[0]:q.end], q,
                                        vocabulary, lang) if a in COUNTED.values()]
            counted = cues[0] if cues else None
        if counted in vocabulary.attributes:
            return counted, "counted"
        return None, f"counts {q.counted}, which no attribute measures"
    if q.unit not in UNITS:
        return None, f"money without a period ({q.unit})"
    dimension = UNITS[q.unit].dimension
    of_dimension = [a.id for a in vocabulary.attributes.values() if a.unit in UNITS and UNITS[a.unit].dimension == dimension]
    if not of_dimension:
        return None, f"no attribute is measured in {q.unit}"
    cued = _cued(text, q, vocabulary, lang, mentions)
    if cued:
        if len(cued) > 1 and cued[1][0] == cued[0][0]:
            return None, f"cues of {cued[0][1]} and {cued[1][1]} stand equally near"
        return cued[0][1], "cue"
    of_dimension = [a for a in of_dimension if not vocabulary.attributes[a].needs_cue] or of_dimension
    if len(of_dimension) == 1:
        return of_dimension[0], "unit"
    # No cue: the first attribute of its unit in attributes.yaml (memory for GB, memory bandwidth for TB/s)
    # is a guess, kept as a candidate for curators, never an answer.
    return of_dimension[0], "guess"


def _entity(text: str, q: Quantity, mentions: list[Mention], vocabulary: Vocabulary) -> tuple[str | None, str]:
    """The entity a quantity is about, and a doubt ("" when there is none)."""
    subjects = [m for m in mentions if vocabulary.entities[m.entity].kind in SUBJECT_KINDS
                and not COMPARED.search(text[max(0, m.start - 16):m.start])]
    if q.counted == "chips":  # "16 Trainium2 chips": the chip is what is counted, not what has them
        counted = [m for m in subjects if q.end - len(q.unit_text) <= m.start < q.end]
        subjects = [m for m in subjects if m not in counted and vocabulary.entities[m.entity].kind != "chip"]
    if not subjects:
        return None, "no entity of the fact table is named in its sentence"
    left, right = _clause(text, q.start, q.end)
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


def _hourly_instance(entity: str, attribute: str, vocabulary: Vocabulary) -> str:
    """A chip's hourly price is the price of the instance built of it, when there is one such instance."""
    if attribute != "price_per_hour" or vocabulary.entities[entity].kind != "chip":
        return entity
    built = [e.id for e in vocabulary.entities.values() if e.parts and e.parts.chip == entity]
    return built[0] if len(built) == 1 else entity


def _subject_of(text: str, mentions: list[Mention], vocabulary: Vocabulary) -> str | None:
    """The one entity a sentence is about, when it names exactly one (else None)."""
    named = {m.entity for m in mentions if vocabulary.entities[m.entity].kind in SUBJECT_KINDS
             and not COMPARED.search(text[max(0, m.start - 16):m.start])}
    return named.pop() if len(named) == 1 else None


def read_prose(article: Article, vocabulary: Vocabulary, corpus_dir) -> tuple[list[Fact], list[Fact], list[Relation],
                                                                              list[Statement]]:
    """(facts, candidates, relations, statements) of one article's prose."""
    sections, blocks = parse_article(article)
    body, lang = article.body, article.meta.lang
    facts, candidates, relations, statements = [], [], [], []
    carried: tuple[str, int] | None = None  # (entity, where its sentence starts) of the sentences before
    lead_in = False  # whether ``carried`` comes from a line that leads into this block ("H100 has:")
    section = -1
    for block in blocks:
        if block.kind != "prose" or block.section_index != section:
            carried, lead_in, section = None, False, block.section_index
        if block.kind != "prose":
            continue
        anchor = sections[block.section_index].anchor
        for s, e in sentence_spans(body, block.char_start, block.char_end):
            text = body[s:e]
            norm = normalize_for_matching(text)
            mentions = vocabulary.mentions(norm) if len(norm) == len(text) else []
            if len(norm) != len(text):
                carried = None
                continue
            subject = _subject_of(text, mentions, vocabulary)
            if mentions and subject is None:
                carried = None  # several things named: what follows is about none of them in particular
            elif subject is not None:
                carried, lead_in = (subject, s), False
            elif carried and s - carried[1] > CARRY:
                carried = None
            if not mentions and carried is None:
                continue
            spans = []  # a relation is read as a whole: its factor is no value of its own
            for m in (m for pattern in RELATIONS for m in pattern.finditer(text)):
                rel = _read_relation(text, m, mentions, vocabulary, lang, article, s, e, anchor, corpus_dir)
                spans.append((m.start(), m.end()))
                statements.append(Statement(article=article.meta.id, start=s + m.start(), end=s + m.end(),
                                            sentence=(s, e), quantity=m.group(0), entity=rel.subject if rel else None,
                                            attribute=rel.attribute if rel else None,
                                            outcome="relation" if rel else "skipped",
                                            reason="relative to another entity" if rel else
                                            "a relation whose two sides or attribute are not named"))
                if rel:
                    relations.append(rel)
            for q in quantities(text):
                if any(a <= q.start < b for a, b in spans):
                    continue
                statement = dict(article=article.meta.id, start=s + q.start, end=s + q.end, sentence=(s, e),
                                 quantity=text[q.start:q.end])
                attribute, why = _attribute(text, q, vocabulary, lang, mentions)
                if mentions:
                    entity, who = _entity(text, q, mentions, vocabulary)
                    quote_start = s
                else:  # "H100 has: - 528 Tensor Cores": the entity of the sentences before
                    (entity, quote_start), who = carried, ""
                if q.unit == "%" or DIFFERENCE.match(text[q.end:q.end + 24]):
                    statements.append(Statement(**statement, entity=entity, attribute=attribute, outcome="skipped",
                                                reason="a share or a difference, not a value"))
                    continue
                if attribute is None or entity is None:
                    statements.append(Statement(**statement, entity=entity, attribute=attribute, outcome="skipped",
                                                reason=why if attribute is None else who))
                    continue
                entity = _hourly_instance(entity, attribute, vocabulary)
                fact = _fact(entity, attribute, q, text, article, quote_start, e, anchor, corpus_dir, vocabulary,
                             s + q.start if quote_start != s else None)
                if fact is None:
                    statements.append(Statement(**statement, entity=entity, attribute=attribute, outcome="skipped",
                                                reason=f"{q.unit} is not a unit of {attribute}"))
                    continue
                if EXERCISE.search(text):
                    statements.append(Statement(**statement, entity=entity, attribute=attribute, outcome="skipped",
                                                reason="a worked exercise, not a specification"))
                    continue
                confidence = CONFIDENCE[why] - (RIVAL if who else 0)
                if quote_start != s:
                    confidence -= CARRIED_LEAD_IN if lead_in else CARRIED
                reason = who or (("named in the line that leads into the list" if lead_in else
                                  "named only in the sentences before") if quote_start != s else why)
                if why == "guess":
                    reason = f"no cue says which attribute of {q.unit}; {attribute} is a guess"
                    who = who or reason
                fact = fact.model_copy(update={"confidence": round(confidence, 2)} | ({"note": who} if who else {}))
                outcome = "fact" if confidence >= FACT_CONFIDENCE else "candidate"
                (facts if outcome == "fact" else candidates).append(fact)
                statements.append(Statement(**statement, entity=entity, attribute=attribute, outcome=outcome,
                                            reason=reason))
        lead_in = carried is not None and body[block.char_start:block.char_end].rstrip().endswith((":", "："))
        if not lead_in:
            carried = None  # only a lead-in line ("H100 has:") lends its entity to the block after it
    return facts, candidates, relations, statements


def _source(article: Article, s: int, e: int, anchor: str, corpus_dir, value_start: int | None = None) -> FactSource:
    return FactSource(article_id=article.meta.id, title=article.meta.title, url=article.meta.source.link(),
                      anchor=anchor, char_start=s, char_end=e, quote=article.body[s:e], origin="prose",
                      location=file_line(corpus_dir, article, value_start or s), value_start=value_start)


def _fact(entity: str, attribute: str, q: Quantity, text: str, article: Article, s: int, e: int, anchor: str,
          corpus_dir, vocabulary: Vocabulary, value_start: int | None = None) -> Fact | None:
    target = vocabulary.attributes[attribute].unit
    if convert(q.value, q.unit, target) is None:
        return None
    value, decimals, unit = rebase(q.value, q.decimals, q.unit, target)  # as written, unless in a base unit
    left, right = _clause(text, q.start, q.end)
    dtype = DTYPE.search(text[left:right]) if UNITS[target].dimension == "ops/s" else None
    basis = None
    if UNITS[target].dimension == "ops/s":
        basis = "sparse" if SPARSE.search(text[left:right]) else ("measured" if MEASURED.search(text[left:right]) else None)
    return Fact(entity=entity, attribute=attribute, value=value, unit=unit, decimals=decimals,
                value_text=q.number_text, approx=q.approx, bound=q.bound, dtype=dtype.group(1).upper() if dtype else None,
                basis=basis, as_of=article.meta.as_of or article.meta.published,
                source=_source(article, s, e, anchor, corpus_dir, value_start))


def _read_relation(text: str, m: re.Match, mentions: list[Mention], vocabulary: Vocabulary, lang: str,
                   article: Article, s: int, e: int, anchor: str, corpus_dir) -> Relation | None:
    subjects = [x for x in mentions if vocabulary.entities[x.entity].kind in SUBJECT_KINDS]
    before = [x for x in subjects if x.end <= m.start() and not COMPARED.search(text[max(0, x.start - 16):x.start])]
    if "other" in m.groupdict() and m.group("other"):
        other = m.group("other")
        # "比前者低了60%": the former is the first entity of the sentence, the latter the nearest one
        named = [x for x in subjects if m.start("other") <= x.start < m.end("other")]
        obj = named[0] if named else (subjects[0] if other == "前者" and subjects else None)
        subject = next((x for x in reversed(before) if obj is None or x.entity != obj.entity), None)
    else:
        after = [x for x in subjects if x.start >= m.end() - 1 and x.start <= m.end() + 24]
        obj = after[0] if after else None
        subject = before[-1] if before else None
    if subject is None or obj is None or subject.entity == obj.entity:
        return None
    left, right = _clause(text, m.start(), m.end())
    lo = max(0, left - WINDOW)
    clause = text[lo:right].lower()
    distance: dict[str, int] = {}  # each attribute cued in the clause, by its distance to the comparative word
    for attr in vocabulary.attributes.values():
        for cue in (*attr.cues.get("en", ()), *attr.cues.get(lang, ())):
            for c in re.finditer(cue, clause):
                d = abs(lo + c.start() - m.start("word"))
                distance[attr.id] = min(distance.get(attr.id, 10**6), d)
    word = m.group("word").lower()
    if word in ("faster", "slower", "быстрее", "медленнее", "快", "慢") and not distance:
        distance = {"peak_compute": 0}  # "2-3x faster" without a named attribute is about compute
    attribute = min(distance, key=distance.get) if distance else None
    # a price of work done ("cost per image", "每张图片的成本") is not the price of the hardware
    if attribute is None or attribute == "price_per_hour" and PER_WORK.search(clause):
        return None
    low, high = float(m.group("low")), float(m.group("high") or m.group("low"))
    lower = word in LOWER_WORDS
    if m.group("kind") == "%":
        ratio = (1 - high / 100, 1 - low / 100) if lower else (1 + low / 100, 1 + high / 100)
    else:
        ratio = (1 / high, 1 / low) if lower else (low, high)
    subject_id = _hourly_instance(subject.entity, attribute, vocabulary)
    object_id = _hourly_instance(obj.entity, attribute, vocabulary)
    bound = "at_least" if re.search(r"more than\s*$", text[:m.start()], re.IGNORECASE) else None
    factor = text[m.start("low"):m.end("kind")].replace(" ", "")
    return Relation(subject=subject_id, object=object_id, attribute=attribute, ratio=ratio,
                    direction="lower" if lower else "higher", bound=bound, factor=factor,
                    source=_source(article, s, e, anchor, corpus_dir))
