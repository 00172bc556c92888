"""The reliability suite, shortened, in `make test`: schemathesis with every check, a bounded wrk load at
concurrency 32 with a health probe, stalled clients and refused requests, against a real `kb serve`.
`kb bench --reliability` runs it longer and writes eval/results/reliability.md."""

from __future__ import annotations

from kb.evaluation.reliability import LOAD_CONNECTIONS, run_reliability


def test_the_service_holds_under_the_reliability_suite(built_index_dir):
    result = run_reliability(built_index_dir, seconds=4.0, examples=30)
    assert result["failures"] == [], result
    assert result["schemathesis"]["generated"] > 200
    # the load reached the service: more answers than wrk has connections. How many answers 4 s hold is a speed
    # figure (kb bench), not asserted: a busy machine answers fewer (54 on a fresh-clone run of a slow one, 88 before)
    assert result["load"]["requests"] > LOAD_CONNECTIONS and result["load"]["health_probes"] >= 20
    assert result["refused"]["log_bytes_per_request"] < 10  # a hostile client cannot fill the disk
