"""Hits to the answer that the CLI, the HTTP API and the evaluation share.

The answer is extractive: one to three sentences (or table cells) of the
top passages, each copied character for character, each followed by an
``[n]`` marker of the citation it comes from, whose ``quote_start`` /
``quote_end`` locate it in the article. Below ``answer_min_score`` the
question is unanswerable: ``answer`` is null and the passages are returned
as related. Two more signals decline a question whatever its score
(``abstain_reason``): it names something the corpus never mentions, or it
asks a known entity for an attribute the fact table has no value of.

Spec questions ("how much HBM does Gaudi have?") also get ``specs``, entries of
the fact table with value, unit and source sentence, and ``spec_answer``, the
lookup, comparison or ranking stated in the question's language. A spec answer
never replaces the passages: they are the evidence a reader checks it against.

This module composes: retrieval scores and ranks (``kb.retrieval``), the
fact table answers spec questions (``kb.specs``), name coverage finds
unknown names (``kb.coverage``), ``kb.quoting`` picks the sentences to quote
for the kind of answer asked (``kb.asks``); the result is a typed
``kb.response`` value.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from kb.asked_about import asked_about
from kb.asks import DEFINES, DRAWBACK, FIGURE_ASKED, WHEN, WHY
from kb.class_comparison import NAMES as CLASS_NAMES
from kb.class_comparison import (
    as_plain,
    class_of,
    class_question,
    class_spans,
    comparison_answer,
    offered_between,
    statements,
)
from kb.coverage import Name, known_terms, names_in, unknown_names, unlisted_names
from kb.index import KnowledgeIndex
from kb.language import CYRILLIC, HAN
from kb.models import Hit
from kb.params import AnswerPolicy, Mode
from kb.quoting import SENTENCE_MARGIN, choose_sentences, relates_two, with_reason
from kb.response import AbstainReason, Answer, AskResponse, Citation, SpecEntry, one_sided
from kb.retrieval import QueryScores, Retriever
from kb.specs.asked_attribute import HOLDER_STEMS_RU, rate_asked
from kb.specs.attribution import COUNTED
from kb.specs.lines import name_generations, unlisted_variant
from kb.specs.present import lookup
from kb.specs.transliteration import latin_names
from kb.specs.units import DTYPE
from kb.statements import passage_statement, unlisted_evidence
from kb.textnorm import normalize_for_matching

CLASS_FROM_TOP = 5  # passages a sentence comparing two classes may come from: such a sentence is rare and telling


def citation_for(hit: Hit, n: int, index: KnowledgeIndex, role: str) -> Citation:
    chunk = hit.chunk
    article = index.articles[chunk.article_id]
    section = " > ".join(p for p in chunk.section if p != article.title) or article.title
    return Citation(n=n, chunk_id=chunk.chunk_id, article_id=chunk.article_id, title=article.title,
                    lang=chunk.lang, section=section, anchor=chunk.anchor, text=chunk.text,
                    score=round(hit.score, 4), url=article.url, char_start=chunk.char_start,
                    char_end=chunk.char_end, role=role)


def class_sentences(compared_in, retriever: Retriever, scores: QueryScores, hits: list[Hit],
                    policy: AnswerPolicy, why: bool) -> list[tuple[int, int, int]]:
    """The sentence comparing the two classes first (asked why, with the sentence that gives its reason), then
    the best other sentences of other passages."""
    if not compared_in:
        return []
    first = with_reason(retriever.index, hits, compared_in[0]) if why else compared_in[0]
    rest = [c for c in choose_sentences(retriever, scores, hits, policy.answer_max_sentences, policy.answer_lang_bonus)
            if c[0] != first[0]]
    return [first, *rest[:policy.answer_max_sentences - 1]]


def fact_sentences(index: KnowledgeIndex, hits: list[Hit], specs: list[SpecEntry], limit: int) -> list[tuple[int, int, int]]:
    """The sentences (table rows) that state a spec answer's facts, when their passages are cited."""
    chosen: list[tuple[int, int, int]] = []
    for spec in specs:
        if spec.citation_n is None or spec.status not in ("value", "unknown"):
            continue
        pos = spec.citation_n - 1
        if any(p == pos for p, _, _ in chosen):  # one quote per citation
            continue
        at = spec.citation.value_start or spec.citation.char_start  # the value's sentence, not the entity's
        span = index.sentence_at(index.chunk_position[hits[pos].chunk.chunk_id], at)
        if span:
            chosen.append((pos, *span))
        if len(chosen) == limit:
            break
    return sorted(chosen)


def known_subjects(retriever: Retriever, text: str, lang: str | None = "en", names: list[Name] | None = None,
                   entities: list[tuple[int, int]] | None = None,
                   terms: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """Where a (normalized) question names what the corpus is about: fact-table entities, domain terms and
    the model numbers and acronyms the corpus itself names (``kb.coverage.known_terms``)."""
    index = retriever.index
    if entities is None:  # the caller's, where it found them already
        entities = [(m.start, m.end) for m in index.facts.vocabulary.mentions(text)]
    terms = retriever.domain_term_spans(text) if terms is None else terms
    return entities + terms + known_terms(text, retriever.words, lang, names)


def gate_applies(known: list[tuple[int, int]], spec, query=None) -> bool:
    """The domain gate judges only questions that name nothing the corpus knows and find no fact of an entity
    they name, or that rank a kind of thing the table holds ("which chip has the most on-chip memory"): those
    are about the subject whatever their wording. A ranking of anything else ("which phone has the most
    memory") is no such sign: the gate judges it."""
    found = bool(spec and spec.found and query is not None)
    ranks_kind = query is not None and query.kind == "superlative" and (query.kind_filter or query.line or query.bare)
    return not known and not (found and (query.entities or ranks_kind))


def class_statement(retriever: Retriever, scores: QueryScores, hits: list[Hit], question):
    """((hit position, body start, body end), statement) of the sentence of the top passages that states which
    of the two asked classes is better at the most of the asked aspects, the best-scoring such sentence among
    those quotable (within ``SENTENCE_MARGIN`` of the best); None when none does."""
    index = retriever.index
    top = {index.chunk_position[h.chunk.chunk_id]: pos for pos, h in enumerate(hits[:CLASS_FROM_TOP])}
    rows, value = retriever.sentence_evidence(scores, list(top))
    if rows.size == 0:
        return None
    vocabulary = index.facts.vocabulary
    best, found = float(value.max()), []
    for k in np.argsort(-value, kind="stable"):
        if value[k] < best - SENTENCE_MARGIN:
            break
        c, s, e = (int(x) for x in index.sentence_spans[rows[k]])
        text = normalize_for_matching(index.chunks[c].span_text(s, e))
        if stated := statements(text, [(m.start, m.end) for m in vocabulary.mentions(text)], question):
            found.append((len({st.aspect.name for st in stated}), -len(found), (top[c], s, e), stated[0]))
    if not found:
        return None
    *_, span, statement = max(found)
    return span, statement


def stated_sentences(index: KnowledgeIndex, hits: list[Hit], sources) -> list[tuple[int, int, int]]:
    """The sentences of ``sources`` (a relation a comparison rests on, or prose readings the table is unsure
    of) whose passages are cited: the first one found."""
    for source in sources:
        at = source.value_start or source.char_start  # the sentence that holds the value
        for pos, hit in enumerate(hits):
            position = index.chunk_position[hit.chunk.chunk_id]
            if hit.chunk.article_id == source.article_id and hit.chunk.char_start <= at < hit.chunk.char_end:
                span = index.sentence_at(position, at)
                if span:
                    return [(pos, *span)]
    return []


@lru_cache(maxsize=4)
def _makers(vocabulary) -> frozenset[str]:
    """The fact table's makers, lower case: derived once per vocabulary, not per question."""
    return frozenset(e.vendor.lower() for e in vocabulary.entities.values() if e.vendor)


# What holds chips that no instance of the table is: a supercomputer, a cluster, a server, a board
_HOLDER = re.compile(r"\b(?:supercomputers?|clusters?|servers?|boards?|systems?|machines?)\b|"
                     rf"(?<![а-яё])(?:{HOLDER_STEMS_RU})\w*|超算|超级计算机|集群|服务器|主板|系统")


def _held_elsewhere(query, names, mentions, vocabulary, words, makers: frozenset[str], text: str = "") -> bool:
    """Whether a count of chips is asked of a named thing the table has no entry for, said to be a machine that
    holds them ("Gaudi processors in the Voyager supercomputer", "圣地亚哥超算中心的 Voyager 里"): the chip named is what
    is counted, and no instance of the table that holds that chip answers for the thing named (nor is a maker one:
    "AWS")."""
    if query is None or query.attribute != COUNTED.get("chips") or not query.entities or \
            any(vocabulary.entities[e].kind != "chip" for e in query.entities):
        return False
    def other(n) -> bool:  # a name apart from the chip's, or one that builds on it ("DGX A100"), not its maker's
        inside = [m for m in mentions if n.start < m.end and m.start < n.end]
        extra = n.text if not inside else n.text[:max(0, inside[0].start - n.start)] + " " + n.text[inside[-1].end - n.start:]
        return bool(extra.split()) and not {w.lower() for w in extra.split()} & makers and \
            (bool(inside) or words.mentions(n.text))
    return bool(_HOLDER.search(text)) and any(other(n) for n in names)


def _standing_class(vocabulary, mentions, spec) -> str | None:
    """The class of the one product a question names where the fact table holds nothing of the attribute asked
    (no value, no stated relation, no unsure reading): set against the other class ("Is TPU v5e cheaper than
    GPUs?"), it stands for its class. None for two products, a product of no class, or no attribute asked ("Is
    TPU v5p faster than GPUs?": the passages about the product itself answer)."""
    if len({m.entity for m in mentions}) != 1 or spec is None or not spec.missing or spec.unsure or spec.relation:
        return None
    return class_of(vocabulary.entities, mentions[0].entity)


def _with_latin_names(question: str, mentions: list, vocabulary) -> str:
    """The question as retrieval reads it: a product named in another script than the corpus's ("昇腾950DT",
    "Трейниум 3") is written in the table's name too ("Huawei Ascend 950DT"), so passages that write only that name
    are found by their words as well as by meaning; not where its Latin letters name it already ("серии MI300")."""
    names = [vocabulary.entities[m.entity].name for m in mentions if _NOT_LATIN.search(m.text) and
             m.entity not in {n.entity for n in vocabulary.mentions(_NOT_LATIN.sub(" ", m.text))}]
    return f"{question} {' '.join(dict.fromkeys(names))}" if names else question


_NOT_LATIN = re.compile(f"[{HAN}{CYRILLIC}]+")


def _as_class(text: str, spans: list[tuple[int, int]], standing: str) -> str:
    """The question with the product's name read as its class's ("H100 дешевле, чем TPU?" -> "GPU дешевле, чем TPU?")."""
    for start, end in sorted(spans, reverse=True):
        text = f"{text[:start]}{CLASS_NAMES[standing]}{text[end:]}"
    return text


def _abstain_reason(hits: list[Hit], scores: QueryScores, policy: AnswerPolicy, about_unknown: bool,
                    spec, stated: bool = False) -> AbstainReason | None:
    reason = None if hits and scores.evidence >= policy.answer_min_score else AbstainReason.WEAK_EVIDENCE
    if about_unknown:
        return AbstainReason.UNKNOWN_NAME  # the question is about something the corpus never names
    if spec is not None and spec.found:
        return None if hits else reason  # the fact table holds the answer, with its source sentence
    if spec is not None and spec.missing and not spec.unsure and not stated:
        # A chip the corpus knows, an attribute it knows, and no such fact anywhere, not even an unsure
        # reading: passages about that chip would answer a different question, so say the corpus lacks it.
        return AbstainReason.NO_FACT
    return reason


def ask(retriever: Retriever, question: str, top_k: int, policy: AnswerPolicy, mode: Mode | None = None,
        observe: Callable[[str, float], None] | None = None) -> AskResponse:
    """The answer to one question; ``observe(stage, seconds)`` hears how long retrieval and composition took."""
    started = time.perf_counter()
    index = retriever.index
    # "Трн2 ультрасервер", "а100": names written in Cyrillic letters; "trainum3": a slip in a name
    asked, question = question, latin_names(question, index.facts.vocabulary, retriever.words.words)
    question = index.facts.vocabulary.mend_names(question, retriever.words.words)
    question = name_generations(question, index.facts.vocabulary)  # "the second-generation Trainium"
    text = normalize_for_matching(question)
    vocabulary = index.facts.vocabulary
    mentions = vocabulary.mentions(text)
    scores = retriever.score(_with_latin_names(question, mentions, vocabulary), mode)
    names = names_in(text, scores.lang)  # jieba's tagger is the slow part: run it once per question
    entities = [(m.start, m.end) for m in mentions]
    low = text.lower()
    cued_at = vocabulary.cue_spans(low, scores.lang or "en")
    cue_spans = [sp for found in cued_at.values() for sp in found]
    terms = retriever.domain_term_spans(text)
    unlisted = unlisted_names(retriever.words, names, entities + cue_spans + [m.span() for m in DTYPE.finditer(text)],
                              terms, vocabulary.names_a_product_line) + \
        [Name(text[s:e], s, e) for m in mentions if (span := unlisted_variant(vocabulary, text, m))
         for s, e in [span]]
    # a maker written in Russian or Chinese ("英伟达的哪款 GPU") is read by its Latin name, as the fact table gives it
    makers = _makers(vocabulary)
    read = retriever.glossary.in_english(question, makers) if retriever.glossary else question
    query, spec = lookup(index.facts, read, scores.lang, retriever.words.words, tuple(n.text for n in unlisted))
    if _held_elsewhere(query, names, mentions, vocabulary, retriever.words, makers, text):
        query, spec = None, None  # the passages say how many the thing named holds
    known = known_subjects(retriever, text, scores.lang, names, entities, terms)
    judged = gate_applies(known, spec, query) and scores.domain is not None
    off_topic = judged and scores.domain < policy.answer_min_domain
    if off_topic:  # its reading as a spec question ("cheapest way to Lisbon") is no answer, and pins no passage
        query, spec = None, None
    # The passages holding a spec answer's facts are its evidence: they lead the citations.
    entries = spec.entries if spec else []
    sources = [index.chunk_at(e.citation.article_id, e.citation.value_start or e.citation.char_start) for e in entries]
    repeats = [index.chunk_at(e.citation.article_id, a.char_start) for e in entries for a in e.also]
    relation = spec.relation if spec else None
    said = ([relation] if relation else []) + list(spec.unsure if spec else ())
    stated = [index.chunk_at(s.article_id, s.value_start or s.char_start) for s in said] + \
        (unlisted_evidence(index, query) if query is not None and query.unlisted else [])
    # two things named and no figure of the table answers, or their figures are compared: the passage whose
    # sentence names both relates them (after the figures' own passages: "Trainium2 < H100")
    pair = tuple(dict.fromkeys(m.entity for m in mentions))
    pair = pair if len(pair) == 2 and not (spec and spec.found and query.kind != "comparison") else ()
    relating = retriever.relating(scores, pair, relates_two) if pair else []
    pinned = list(dict.fromkeys(i for i in stated + sources[:2] + relating + sources[2:] + repeats if i is not None))[:top_k] \
        if policy.pin_spec_evidence else []
    hits = retriever.rank(scores, top_k, pinned)
    retrieved = time.perf_counter()
    unknown = unknown_names(text, retriever.words, scores.lang, names, entities)
    # A question that asks for an attribute asks it of an entity: a domain word ("HBM") is what it asks,
    # not whom, so an unknown name beside it is the entity asked about ("сколько HBM у Maia 100").
    # Two classes offered as alternatives ("TPU or GPU") with an attribute are whom it asks: "for Stable
    # Diffusion, is TPU or GPU cheaper?" asks of them.
    subjects = (entities + class_spans(text)) if cued_at else known
    # no value in the table, no candidate reading: a passage may still state it (see passage_statement)
    statement = passage_statement(index, hits, query) if spec is not None and spec.missing and not spec.unsure else []
    # two classes offered as alternatives ("TPU или GPU"): the sentence that says which is better at the asked aspect;
    # one product of a class set against the other with nothing of its own to answer stands for its class
    why = WHY.search(low) is not None
    standing = _standing_class(vocabulary, mentions, spec) if not unlisted and not statement and not off_topic \
        else None
    classes = class_question(text, entities + [(n.start, n.end) for n in unlisted], premise=why,
                             standing=standing) if query is None or standing else None
    compared_in = class_statement(retriever, scores, hits, classes) if classes else None
    # none in the passages: retrieved again as the classes are compared in the corpus, a product standing for its
    # class named as the class ("H100 дешевле, чем TPU?" as "GPU дешевле, чем TPU?"), "дороже" as "дешевле"
    retold = as_plain(_as_class(low, entities, standing) if standing else low, scores.lang) if classes else low
    if classes and not compared_in and retold != low:
        as_classes = retriever.score(retold, mode)
        as_hits = retriever.rank(as_classes, top_k)
        if found := class_statement(retriever, as_classes, as_hits, classes):
            scores, hits, compared_in = as_classes, as_hits, found
    if standing and compared_in:
        spec = None  # "no price for TPU v5e" is no reason to decline: the classes are compared
    reason = AbstainReason.OFF_TOPIC if off_topic else \
        _abstain_reason(hits, scores, policy, asked_about(text, unknown, subjects, cue_spans), spec,
                                 bool(statement))
    role = "evidence" if reason is None else "related"
    citations = [citation_for(h, n, index, role) for n, h in enumerate(hits, start=1)]
    cited = {index.chunk_position[h.chunk.chunk_id]: n for n, h in enumerate(hits, start=1)}
    specs = [e.model_copy(update={"citation_n": cited.get(i) if i is not None else None})
             for e, i in zip(entries, sources, strict=True)]
    answer, spec_answer = None, spec.answer if spec else None
    # a drawback asked ("чем плохо ...", "what's the catch with ..."): the sentence that names it with the next one of
    # its paragraph, which says why it matters
    drawback = not why and DRAWBACK.search(low) is not None
    # a figure asked: in so many words or by a word of rate ("what AllReduce bandwidth do you get"), not a definition
    figure = (FIGURE_ASKED.search(low) is not None or rate_asked(low)) and not DEFINES.search(low)
    compared_in = compared_in if reason is None else None
    if reason is None:
        parts, quoted = [], []
        chosen = class_sentences(compared_in, retriever, scores, hits, policy, why) or \
            stated_sentences(index, hits, said) or statement or \
            (fact_sentences(index, hits, specs, policy.answer_max_sentences) if not one_sided(spec and spec.answer, specs)
             else []) or \
            choose_sentences(retriever, scores, hits, policy.answer_max_sentences, policy.answer_lang_bonus, why=why,
                             drawback=drawback, figure=figure, when=WHEN.search(text) is not None,
                             pair=() if why else pair)
        for pos, start, end in chosen:
            c = citations[pos]
            citations[pos] = c.model_copy(update={"quote_start": start, "quote_end": end})
            parts.append(f"{c.text[start - c.char_start:end - c.char_start]} [{c.n}]")
            quoted.append(c.n)
        if parts:
            answer = Answer(text=" ".join(parts), source_lang=citations[quoted[0] - 1].lang, citations=tuple(quoted))
        # asked why one class is better, not which ("为啥 TPU 比 GPU 更划算？"), the verdict is the question's
        # premise: the sentence and its reason answer, and no verdict is read first
        if compared_in and (not why or offered_between(text)):
            (pos, start, end), found = compared_in
            one = vocabulary.entities[mentions[0].entity] if standing else None
            product = (one.display_name(scores.lang or "en"), standing, one.kind != "chip") if one else None
            spec_answer = comparison_answer(found, hits[pos].chunk.span_text(start, end), scores.lang or "en", product,
                                            classes.inverted)
    if observe is not None:
        observe("retrieve", retrieved - started)
        observe("compose", time.perf_counter() - retrieved)
    return AskResponse(
        question=asked, lang=scores.lang, mode=mode or retriever.mode, answerable=reason is None,
        abstain_reason=reason, unknown_names=tuple(n.text for n in unknown),
        evidence_score=round(scores.evidence, 4) if hits else None,
        domain_score=round(scores.domain, 4) if scores.domain is not None else None, domain_judged=judged,
        answer=answer, citations=tuple(citations),
        specs=tuple(specs), spec_answer=spec_answer,
        took_ms=round((time.perf_counter() - started) * 1000, 1),
    )
