"""What the ``kb`` command prints for a person at a terminal: answers, spec entries, evaluation summaries.

``--json`` prints the same values as data instead, for scripts.
"""

from __future__ import annotations

import textwrap

from kb.response import AbstainReason, spec_leads


def print_answer(response) -> None:
    width = 100
    print(f"Q: {response.question}  [{response.lang or '?'}]  {response.mode}, {response.took_ms} ms")
    print_specs(response)
    if response.answer:
        print()
        quoted_in = f"  (quoted in {response.answer.source_lang})" if response.answer.source_lang != response.lang else ""
        for line in textwrap.wrap("A: " + " ".join(response.answer.text.split()) + quoted_in, width):
            print(line)
    elif response.abstain_reason == AbstainReason.OFF_TOPIC:
        print("\nDeclined: the question is not about AI training hardware (domain gate).")
        return
    elif response.citations:
        why = {AbstainReason.UNKNOWN_NAME: f"the corpus never mentions {', '.join(response.unknown_names)}",
               AbstainReason.NO_FACT: response.spec_answer.text if response.spec_answer else ""}
        reason = why.get(response.abstain_reason, "")
        print("\nNo confident answer" + (f" ({reason})" if reason else "") + "; related passages:")
    if not response.citations:
        print("No passages found.")
    for c in response.citations:
        print()
        print(f"[{c.n}] {c.score:.3f}  {c.title}  ({c.lang})")
        print(f"    § {c.section}")
        if c.text.lstrip().startswith("|"):  # a table: keep its rows, shorten long ones
            for row in c.text.split("\n"):
                print("    " + textwrap.shorten(" ".join(row.split()), width - 4, placeholder=" …"))
        else:
            for line in textwrap.wrap(" ".join(c.text.split()), width - 4):
                print("    " + line)
        print(f"    source: {c.url or c.article_id}  chars {c.char_start}-{c.char_end}")


def print_specs(response) -> None:
    if not spec_leads(response):
        return
    print()
    summary = response.spec_answer.text if response.spec_answer else ""
    if not response.specs:  # a comparison from a stated relation: the relation and its sentence
        for line in textwrap.wrap("Spec: " + summary, 100):
            print(line)
        print(f"    \"{textwrap.shorten(' '.join(response.spec_answer.relation.split()), 90, placeholder=' …')}\"")
        return
    if summary and summary != response.specs[0].display:  # a comparison, a ranking or a disagreement
        for line in textwrap.wrap("Spec: " + summary, 100):
            print(line)
    else:
        print("Spec:")
    for spec in response.specs:
        flag = "  [sources disagree]" if spec.conflict else ""
        print(f"  - {spec.display}{flag}")
        print(f"    \"{textwrap.shorten(' '.join(spec.quote.split()), 90, placeholder=' …')}\"  "
              f"({spec.citation.title})")


def print_result(result: dict) -> None:
    def cell(block: dict, metric: str) -> str:
        return f"{block[metric]['mean']:.3f}"

    print(f"\n{result['suite']} / {result['config']}  (model {result['model']['id']})")
    if result["suite"] == "kb":
        from kb.evaluation.kb_report import SPLITS, fmt, headline

        splits = [split for split in SPLITS if split in result["summary"]]
        figures = {split: headline(result["summary"][split]) for split in splits}
        print("  " + f"{'':36s}" + "".join(f"{split + (' (held out)' if split == 'test' else ' (in-sample)'):>28s}"
                                           for split in splits))
        for name in figures[splits[0]]:
            print(f"  {name:36s}" + "".join(f"{fmt(figures[split][name]):>28s}" for split in splits))
        test = result["summary"][splits[0]]["retrieval"]
        pairs = "  ".join(f"{p} {cell(b, 'recall@5')}" for p, b in test["by_pair"].items())
        print(f"  {splits[0]} Recall@5 by pair: {pairs}")
        print("  intervals: 95%, cluster bootstrap over information needs")
    else:
        for name, block in result["settings"].items():
            pairs = "  ".join(f"{p} {cell(b, 'ndcg@10')}" for p, b in block["by_pair"].items())
            print(f"  {name:12s} nDCG@10 {cell(block['overall'], 'ndcg@10')}  R@10 {cell(block['overall'], 'recall@10')}"
                  f"  mAP@20 {cell(block['overall'], 'map@20')}\n      {pairs}")
    lat = result["latency"]
    print(f"  latency per question: median {lat['median_ms']} ms, p95 {lat['p95_ms']} ms")
