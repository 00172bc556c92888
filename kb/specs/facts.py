"""The fact table: every fact of tables, prose and curated entries, validated, with disagreements marked.

Facts come from three readers: the Markdown tables (``tables.yaml`` says how to read each), prose
sentences (``kb.specs.prose``: a quantity, an entity and an attribute cue) and ``facts.yaml``, where a
curator adds what the readers miss. A prose statement the reader is not sure of is kept as a
candidate (``kb specs --candidates``), not used to answer; stated relations ("60% lower than P4d")
are kept for comparisons.

Built by ``kb build`` into ``facts.json`` of the index artifact, so the
service answers spec questions from the same immutable build as passages.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import asdict
from pathlib import Path

from kb.errors import SpecError
from kb.models import Article
from kb.specs import dates
from kb.specs.curated import read_curated
from kb.specs.model import Fact, FactSource
from kb.specs.prose import EVIDENCE_CONFIDENCE, read_prose
from kb.specs.quantities import word_number
from kb.specs.relations import Relation
from kb.specs.tables import read_tables
from kb.specs.units import capacity_twins, convert, numbers_in, same_number, topology_chips
from kb.specs.vocabulary import Vocabulary

FACTS_JSON = "facts.json"
SPECS_DIR = "specs"
DEFAULT_SCOPE = {"chip": "per_chip", "instance": "per_instance", "system": "per_system"}


def specs_hash(corpus_dir: Path) -> str:
    """Of the curated spec files: an index whose facts came from other files is stale."""
    digest = hashlib.sha256()
    folder = corpus_dir / SPECS_DIR
    for path in sorted(folder.glob("*.yaml")) if folder.exists() else []:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def validate(fact: Fact, body: str) -> None:
    """The check every fact passes, whatever made it: its quote is the article text at its offsets,
    and a number is stated there (never one whose digits the source lost)."""
    src = fact.source
    if body[src.char_start:src.char_end] != src.quote:
        raise SpecError(src.location, f"the quote is not the text of {src.article_id} at "
                                      f"{src.char_start}-{src.char_end}")
    if fact.value_text and fact.value_text not in src.quote:
        raise SpecError(src.location, f"the value {fact.value_text!r} does not occur in its quote")
    if fact.is_number:
        if "[?]" in fact.value_text:
            raise SpecError(src.location, "a value the source lost ([?]) is stored as a number")
        spelled = word_number(fact.value_text) or topology_chips(fact.value_text)  # "seven", "16x20x28"
        if not (spelled is not None and same_number(spelled, fact.value)) and \
                not any(same_number(n.value, fact.value) or same_number(convert(n.value, "B/s", fact.unit) or -1, fact.value)
                        or same_number(convert(n.value, "FLOPS", fact.unit) or -1, fact.value)
                        for n in numbers_in(fact.value_text)):
            raise SpecError(src.location, f"{fact.value_text!r} does not state the value {fact.value:g}")


def _agree(a: Fact, b: Fact) -> bool:
    """Equal within the precision of the less precise statement (362 and 362.1 agree; 190 and 191 do not);
    a memory size written in GB by one source and GiB by another is one figure (``capacity_twins``)."""
    if not (a.is_number and b.is_number):
        if a.text and b.text and a.attribute == b.attribute == dates.ATTRIBUTE:
            return dates.same_date(a.text, b.text)
        return a.text == b.text if a.text or b.text else True
    twins = capacity_twins(a.unit, b.unit)
    other = b.value if twins else convert(b.value, b.unit, a.unit)
    if other is None:
        return True  # incomparable units are not a disagreement about one quantity
    # half a unit of the last digit of each, in a's unit: "0.8 TB/s" spans 0.75-0.85, "820 GiB/s" 819.5-820.5 GiB/s
    half_b = 0.5 * 10 ** -b.decimals
    tolerance = max(0.5 * 10 ** -a.decimals, half_b if twins else convert(half_b, b.unit, a.unit))
    return abs(a.value - other) <= tolerance + 1e-9


def mark_conflicts(facts: list[Fact]) -> list[Fact]:
    conflicted = set()
    for i, a in enumerate(facts):
        for j in range(i + 1, len(facts)):
            b = facts[j]
            if a.entity == b.entity and a.attribute == b.attribute and a.same_subject(b) and \
                    a.status == b.status == "value" and not _agree(a, b):
                conflicted.update((i, j))
    return [f.model_copy(update={"conflict": True}) if i in conflicted else f for i, f in enumerate(facts)]


def _known(fact: Fact, facts: list[Fact]) -> bool:
    """Whether the table already states this value for this entity and attribute."""
    return any(f.entity == fact.entity and f.attribute == fact.attribute and f.is_number and fact.is_number and
               _agree(f, fact) and (convert(fact.value, fact.unit, f.unit) is not None) for f in facts)


def _restated(fact: Fact, facts: list[Fact]) -> bool:
    """Whether a prose reading says again what a table of its own article states (the same value, unit, data
    type, basis and variant: a summary table and the sentence under it): it is kept, and the answer shows it as
    another place of that statement."""
    return any(f.value == fact.value and f.unit == fact.unit and f.dtype == fact.dtype and
               f.plain_basis == fact.plain_basis and f.variant == fact.variant and
               f.entity == fact.entity and f.attribute == fact.attribute and
               f.source.article_id == fact.source.article_id and f.source.origin == "table" for f in facts)


class FactTable:
    def __init__(self, vocabulary: Vocabulary, facts: list[Fact], candidates: list[Fact] | None = None,
                 relations: list[Relation] | None = None) -> None:
        self.vocabulary = vocabulary
        self.facts = facts
        self.candidates = candidates or []
        self.relations = relations or []
        self._by_entity: dict[str, list[Fact]] = {}
        self._entities_by_attribute: dict[str, set[str]] = {}
        for fact in facts:
            self._by_entity.setdefault(fact.entity, []).append(fact)
            self._entities_by_attribute.setdefault(fact.attribute, set()).add(fact.entity)
        # the attributes given per data type (compute, MAMF): a data type asked filters their figures only
        self.typed = frozenset(f.attribute for f in facts if f.dtypes)

    @classmethod
    def build(cls, corpus_dir: Path, articles: list[Article]) -> FactTable:
        """Read, check and join every fact; raise SpecError naming the file and line of a bad one."""
        folder = corpus_dir / SPECS_DIR
        if not folder.exists():
            return cls(Vocabulary([], []), [])
        vocabulary = Vocabulary.load(folder)
        by_id = {a.meta.id: a for a in articles}
        facts, relations = read_tables(folder, by_id, vocabulary)
        facts += read_curated(folder, by_id, vocabulary)
        candidates: list[Fact] = []
        curated = [f for f in facts if f.source.origin == "curated"]

        def overridden(fact: Fact) -> bool:  # a curated entry about the same statement wins over the reader
            return any(c.source.article_id == fact.source.article_id and c.attribute == fact.attribute and
                       c.value == fact.value and c.source.char_start < fact.source.char_end and
                       fact.source.char_start < c.source.char_end for c in curated)

        read = list(facts)  # of the tables and curated entries
        for article in articles:
            prose, unsure, related, _ = read_prose(article, vocabulary, corpus_dir)
            for fact in prose:
                if (_known(fact, facts) and not _restated(fact, facts)) or overridden(fact):
                    continue
                # A prose reading that a table or curated entry contradicts is more likely a misreading (another
                # variant, another product in the sentence) than a disagreement of sources: curators judge it.
                rival = next((f for f in read if f.entity == fact.entity and f.attribute == fact.attribute and
                              f.same_subject(fact) and not _agree(f, fact)), None)
                if rival is not None:
                    candidates.append(fact.model_copy(update={
                        "note": f"disagrees with {rival.value_text or rival.text} of {rival.source.location}"}))
                else:
                    facts.append(fact)
            candidates += unsure
            relations += related
        checked = []
        for fact in facts:
            validate(fact, by_id[fact.source.article_id].body)
            kind = vocabulary.entities[fact.entity].kind
            if fact.scope is None and kind in DEFAULT_SCOPE and vocabulary.attributes[fact.attribute].scoped:
                fact = fact.model_copy(update={"scope": DEFAULT_SCOPE[kind]})
            checked.append(fact)
        return cls(vocabulary, mark_conflicts(checked), candidates, relations)

    def save(self, folder: Path) -> None:
        data = {"vocabulary": self.vocabulary.to_json(), "facts": [f.model_dump(mode="json") for f in self.facts],
                "candidates": [f.model_dump(mode="json") for f in self.candidates],
                "relations": [asdict(r) | {"source": r.source.model_dump(mode="json")} for r in self.relations]}
        (folder / FACTS_JSON).write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")

    @classmethod
    def load(cls, folder: Path) -> FactTable:
        data = json.loads((folder / FACTS_JSON).read_text(encoding="utf-8"))
        relations = [Relation(**{**r, "ratio": tuple(r["ratio"]), "source": FactSource.model_validate(r["source"])})
                     for r in data.get("relations", [])]
        return cls(Vocabulary.from_json(data["vocabulary"]), [Fact.model_validate(f) for f in data["facts"]],
                   [Fact.model_validate(f) for f in data.get("candidates", [])], relations)

    # ---- queries ----

    def about(self, entity: str, attribute: str | None = None) -> list[Fact]:
        facts = self._by_entity.get(entity, [])
        return [f for f in facts if attribute is None or f.attribute == attribute]

    def attributes_of(self, entity: str) -> list[str]:
        return sorted({f.attribute for f in self._by_entity.get(entity, [])})

    def entities_with(self, attribute: str) -> list[str]:
        return sorted(self._entities_by_attribute.get(attribute, ()))

    def candidates_about(self, entity: str, attribute: str) -> list[Fact]:
        """Prose readings of this entity's attribute not sure enough to answer but sure enough to quote: the
        attribute cued, the entity in doubt (``kb specs --candidates`` lists them all)."""
        return [c for c in self.candidates if c.entity == entity and c.attribute == attribute
                and c.confidence >= EVIDENCE_CONFIDENCE]

    def relation_between(self, a: str, b: str, attribute: str, dtype: str | None = None):
        """A stated relation of two entities on an attribute, either way round, or None; a relation stated of
        an entity's series counts for it ("the MI300 series ... 40% more CUs than MI250X" for the MI300X). With
        a data type, one of that type (the FP8 row of an improvement table, not the BF16 one) or of none."""
        sides = self.sides
        return _of_type([r for r in self.relations if r.attribute == attribute and (
            (r.subject in sides(a) and r.object in sides(b)) or (r.subject in sides(b) and r.object in sides(a)))], dtype)

    def relation_to_any(self, entity: str, attribute: str, dtype: str | None = None):
        """A stated relation of an entity (or its series) to another fact-table entity on an attribute, either way
        round, or None: what ranks the only entity with a value against one without ("13.11 USD per hour, 60%
        lower than P4d"). The data-type rule is ``relation_between``'s."""
        own = self.sides(entity)
        return _of_type([r for r in self.relations if r.attribute == attribute and not r.object_text
                         and r.object in self.vocabulary.entities and own & {r.subject, r.object}], dtype)

    def sides(self, entity: str) -> set[str]:
        """An entity and its series: what a relation may be stated of for it."""
        family = self.vocabulary.entities[entity].family
        return {entity, family} if family else {entity}

    def relation_of(self, entity: str, attribute: str):
        """A stated relation of an entity (or what it is built of, or its series) to a class of products on an
        attribute it has no value of ("Gaudi ... 与最新的GPU实例相比性价比高出40%"), or None."""
        sides = {entity, *self.related(entity)}
        return next((r for r in self.relations if r.attribute == attribute and r.subject in sides and r.object_text), None)

    def related(self, entity: str) -> list[str]:
        """Instances and systems built of a chip, or the chip an instance is built of; then the series a chip
        belongs to (never the other way: a series' members differ in their totals)."""
        e = self.vocabulary.entities[entity]
        out = [e.parts.chip] if e.parts else []
        out += [x.id for x in self.vocabulary.entities.values() if x.parts and x.parts.chip == entity]
        return out + ([e.family] if e.family else [])

    def resolve_entity(self, name: str) -> str | None:
        if name in self.vocabulary.entities:
            return name
        found = self.vocabulary.mentions(name)
        return found[0].entity if len(found) == 1 and found[0].end - found[0].start == len(name.strip()) else None

    def close_entities(self, name: str, n: int = 5) -> list[str]:
        names = {e.id: e.id for e in self.vocabulary.entities.values()}
        for e in self.vocabulary.entities.values():
            for alias in (e.name, *e.aliases):
                names[alias.lower()] = e.id
        hits = difflib.get_close_matches(name.lower(), list(names), n=n * 3, cutoff=0.5)
        return list(dict.fromkeys(names[h] for h in hits))[:n]

    def close_attributes(self, name: str, n: int = 5) -> list[str]:
        names = {a.id: a.id for a in self.vocabulary.attributes.values()}
        names.update({a.labels["en"].lower(): a.id for a in self.vocabulary.attributes.values()})
        hits = difflib.get_close_matches(name.lower().replace(" ", "_"), list(names), n=n * 3, cutoff=0.4)
        hits += difflib.get_close_matches(name.lower(), list(names), n=n * 3, cutoff=0.4)
        return list(dict.fromkeys(names[h] for h in hits))[:n]


def _of_type(relations: list, dtype: str | None):
    """The first relation of the asked data type, else one that states none (or any, when no type is asked,
    the usual headline BF16 first), or None."""
    typed = [r for r in relations if dtype and r.dtype and dtype.lower() in r.dtype.lower().split("/")]
    untyped = [r for r in relations if not r.dtype or not dtype]
    if not dtype:
        untyped.sort(key=lambda r: bool(r.dtype) and "bf16" not in r.dtype.lower().split("/"))
    return next(iter(typed + untyped), None)
