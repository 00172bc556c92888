"""The fact table: every fact of tables and curated prose, validated, with disagreements marked.

Built by ``kb build`` into ``facts.json`` of the index artifact, so the
service answers spec questions from the same immutable build as passages.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from pathlib import Path

from kb.errors import SpecError
from kb.models import Article
from kb.specs.curated import read_curated
from kb.specs.model import Fact
from kb.specs.tables import read_tables
from kb.specs.units import convert, numbers_in, same_number
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
        if not any(same_number(n.value, fact.value) or same_number(convert(n.value, "B/s", fact.unit) or -1, fact.value)
                   or same_number(convert(n.value, "FLOPS", fact.unit) or -1, fact.value)
                   for n in numbers_in(fact.value_text)):
            raise SpecError(src.location, f"{fact.value_text!r} does not state the value {fact.value:g}")


def _agree(a: Fact, b: Fact) -> bool:
    """Equal within the precision of the less precise statement (362 and 362.1 agree; 190 and 191 do not)."""
    if not (a.is_number and b.is_number):
        return a.text == b.text if a.text or b.text else True
    other = convert(b.value, b.unit, a.unit)
    if other is None:
        return True  # incomparable units are not a disagreement about one quantity
    tolerance = 0.5 * 10 ** -min(a.decimals, b.decimals)
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


class FactTable:
    def __init__(self, vocabulary: Vocabulary, facts: list[Fact]) -> None:
        self.vocabulary = vocabulary
        self.facts = facts
        self._by_entity: dict[str, list[Fact]] = {}
        self._entities_by_attribute: dict[str, set[str]] = {}
        for fact in facts:
            self._by_entity.setdefault(fact.entity, []).append(fact)
            self._entities_by_attribute.setdefault(fact.attribute, set()).add(fact.entity)

    @classmethod
    def build(cls, corpus_dir: Path, articles: list[Article]) -> FactTable:
        """Read, check and join every fact; raise SpecError naming the file and line of a bad one."""
        folder = corpus_dir / SPECS_DIR
        if not folder.exists():
            return cls(Vocabulary([], []), [])
        vocabulary = Vocabulary.load(folder)
        by_id = {a.meta.id: a for a in articles}
        facts = read_tables(folder, by_id, vocabulary) + read_curated(folder, by_id, vocabulary)
        checked = []
        for fact in facts:
            validate(fact, by_id[fact.source.article_id].body)
            kind = vocabulary.entities[fact.entity].kind
            if fact.scope is None and kind in DEFAULT_SCOPE and vocabulary.attributes[fact.attribute].scoped:
                fact = fact.model_copy(update={"scope": DEFAULT_SCOPE[kind]})
            checked.append(fact)
        return cls(vocabulary, mark_conflicts(checked))

    def save(self, folder: Path) -> None:
        data = {"vocabulary": self.vocabulary.to_json(), "facts": [f.model_dump(mode="json") for f in self.facts]}
        (folder / FACTS_JSON).write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")

    @classmethod
    def load(cls, folder: Path) -> FactTable:
        data = json.loads((folder / FACTS_JSON).read_text(encoding="utf-8"))
        return cls(Vocabulary.from_json(data["vocabulary"]), [Fact.model_validate(f) for f in data["facts"]])

    # ---- queries ----

    def about(self, entity: str, attribute: str | None = None) -> list[Fact]:
        facts = self._by_entity.get(entity, [])
        return [f for f in facts if attribute is None or f.attribute == attribute]

    def attributes_of(self, entity: str) -> list[str]:
        return sorted({f.attribute for f in self._by_entity.get(entity, [])})

    def entities_with(self, attribute: str) -> list[str]:
        return sorted(self._entities_by_attribute.get(attribute, ()))

    def related(self, entity: str) -> list[str]:
        """Instances and systems built of a chip, or the chip an instance is built of."""
        e = self.vocabulary.entities[entity]
        out = [e.parts.chip] if e.parts else []
        out += [x.id for x in self.vocabulary.entities.values() if x.parts and x.parts.chip == entity]
        return out

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
