"""How one product compares with a class of products, as a source states it ("Gaudi ... 与最新的GPU实例相比性价比高出40%",
"TPU v4 и v5p могут быть в 2.8 раз быстрее, чем предыдущие версии TPU").

A question that puts one product against a class ("Насколько Gaudi выгоднее GPU-инстансов?", "How much faster is the
TPU v5p than earlier TPUs?") is not answered by the product's own value: the class has none to set beside it. Where
the table holds a relation of the product (or what it is built of, or its series) to a class that the question names
by the same class word, on the attribute asked, the relation answers. Value for money asked as a price ("cheaper",
"выгоднее", "划算") is answered by a stated price-performance too: that is what a source compares a class on.
"""

from __future__ import annotations

import re

from kb.class_comparison import CLASSES, class_words
from kb.response import LookupAnswer
from kb.specs.clauses import COMPARING
from kb.specs.facts import FactTable
from kb.specs.phrases import RELATION_WORDS, TEXTS, factor_text
from kb.specs.questions import SpecQuery
from kb.specs.relations import Relation
from kb.textnorm import normalize_for_matching

# a product set against another thing: a word of comparison, or a Russian comparative ("выгоднее GPU-инстансов")
_AGAINST = {
    "en": re.compile(rf"\b(?:{COMPARING['en']})\b", re.IGNORECASE),
    "ru": re.compile(rf"(?<![а-яё])(?:{COMPARING['ru']}|(?:выгодн|быстр|медленн|мощн|слаб|сильн|эффективн|экономичн)"
                     r"(?:ее|ей)|дешевле|дороже|больше|меньше|лучше|хуже|выше|ниже|более|менее)(?![а-яё])"),
    "zh": re.compile(COMPARING["zh"].replace("|和|", "|")),  # "Gaudi 和 GPU 实例的价格" sets nothing against
}
# what a source compares a class on, where the question asks the other ("cheaper than GPU instances")
_ALSO_COMPARED_ON = {"price_per_hour": "price_performance"}


def classes_named(question: str, lang: str, table: FactTable) -> set[str]:
    """The classes of product ("gpu", "tpu") a question sets something against, named outside a product's name
    ("TPU" of "TPU v5p" is none); none where the question compares nothing ("Gaudi GPU price per hour?")."""
    low = normalize_for_matching(question).lower()
    if not _AGAINST[lang if lang in _AGAINST else "en"].search(low):
        return set()
    return {cls for _, cls in class_words(low, [(m.start, m.end) for m in table.vocabulary.mentions(low)])}


def class_relation(table: FactTable, query: SpecQuery, classes: set[str]) -> Relation | None:
    """The stated relation of the one product asked about to a class the question names, or None."""
    if query.kind != "lookup" or len(query.entities) != 1 or not classes:
        return None
    attributes = (query.attribute, _ALSO_COMPARED_ON.get(query.attribute))
    for attribute in filter(None, attributes):
        related = table.relation_of(query.entities[0], attribute)
        if related is not None and any(CLASSES[c].search(related.object_text.lower()) for c in classes):
            return related
    return None


def relation_answer(table: FactTable, query: SpecQuery, related: Relation, lang: str) -> LookupAnswer:
    """The relation as the answer: "Intel Gaudi: 40% higher than “最新的GPU实例” (price-performance), as the source states."""
    label = table.vocabulary.attributes[related.attribute].label(lang)
    word, _ = RELATION_WORDS[(related.direction, related.attribute == "price_per_hour")][lang]
    text = TEXTS["relation_class"][lang].format(s=table.vocabulary.entities[related.subject].display_name(lang),
                                                o=related.object_text, word=word,
                                                factor=factor_text(related.factor, lang), label=label)
    return LookupAnswer(kind="lookup", attribute=related.attribute, lang=lang, entities=tuple(query.entities),
                        text=text, relation=related.source.quote)
