"""Hot index updates on a real `kb serve` under load: a published build goes live without a restart or a
failed request, the cache never answers from the old build, and a damaged build is refused."""

from __future__ import annotations

import json
import shutil
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from kb.build import build_index

ROOT = Path(__file__).resolve().parent.parent
MARKER = "kb-reload-marker"
QUESTION = {"question": "How does Trainium handle training workloads?", "top_k": 50}


def _small_corpus(folder: Path, extra: str = "") -> Path:
    """Two articles, the entity and attribute lists and the glossary: a build of a few seconds (the spec
    tables and curated facts are left out: they cite articles this corpus lacks)."""
    (folder / "specs").mkdir(parents=True)
    for name in ("entities.yaml", "attributes.yaml"):
        shutil.copy(ROOT / "corpus" / "specs" / name, folder / "specs" / name)
    for name in ("tables.yaml", "facts.yaml"):
        (folder / "specs" / name).write_text("[]\n", encoding="utf-8")
    shutil.copy(ROOT / "corpus" / "glossary.yaml", folder / "glossary.yaml")
    (folder / "en").mkdir()
    (folder / "ru").mkdir()
    shutil.copy(ROOT / "corpus" / "ru" / "gpu-vs-tpu-transformer-training.md", folder / "ru")
    text = (ROOT / "corpus" / "en" / "aws-trainium-architecture.md").read_text(encoding="utf-8")
    (folder / "en" / "aws-trainium-architecture.md").write_text(text + extra, encoding="utf-8")
    return folder


def _get(port: int, path: str) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as response:
        return json.loads(response.read())


def _ask(port: int) -> tuple[int, dict | None]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/ask", data=json.dumps(QUESTION).encode(),
                                     method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, None
    except OSError:
        return -1, None


def _wait_for(predicate, timeout_s: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_a_published_build_goes_live_under_load_and_a_damaged_one_is_refused(default_encoder, tmp_path):
    from kb.evaluation.load import serving

    index_dir = tmp_path / "var" / "index"
    first = build_index(_small_corpus(tmp_path / "v1"), index_dir, default_encoder, progress=False)
    changed = f"\n\n## Reload check\n\nTrainium training runs were measured again for the {MARKER} note.\n"
    env = {"KB_INDEX_DIR": str(index_dir), "KB_INDEX_POLL_S": "0.3", "KB_ANSWER_CACHE_SIZE": "256",
           "KB_RATE_LIMIT_PER_MINUTE": "100000", "KB_ACCESS_LOG": "false", "KB_FEEDBACK_DB": str(tmp_path / "f.db")}
    results: list[tuple[float, int, bool]] = []  # when it finished, its status, whether it cites the new text
    stop = threading.Event()

    with serving(env, workers=1) as (port, _):
        def load() -> None:
            # bounded in time and count; cached answers take about a millisecond, so a count alone ran
            # out before the new build was even published
            deadline = time.monotonic() + 120
            for _ in range(200_000):
                if stop.is_set() or time.monotonic() > deadline:
                    return
                status, body = _ask(port)
                results.append((time.monotonic(), status, MARKER in json.dumps(body, ensure_ascii=False)))

        assert _get(port, "/readyz")["build_id"] == first["build_id"]
        workers = [threading.Thread(target=load) for _ in range(3)]
        for w in workers:
            w.start()
        try:
            time.sleep(1.0)
            second = build_index(_small_corpus(tmp_path / "v2", changed), index_dir, default_encoder, progress=False)
            assert _wait_for(lambda: _get(port, "/readyz")["build_id"] == second["build_id"])
            switched = time.monotonic()
            assert _wait_for(lambda: sum(t > switched + 0.1 for t, _, _ in list(results)) >= 20)
        finally:
            stop.set()
            for w in workers:
                w.join(60)

        # A damaged build published by hand: refused, logged, shown; the good build keeps serving.
        damaged = index_dir.parent / "index.builds" / "damaged"
        shutil.copytree(index_dir.resolve(), damaged)
        (damaged / "vectors.faiss").write_bytes(b"broken")
        link = index_dir.parent / "index.tmp-link"
        link.symlink_to(damaged)
        link.replace(index_dir)
        assert _wait_for(lambda: _get(port, "/readyz")["index_reload"]["refused"] is not None)
        ready = _get(port, "/readyz")
        status_after, _ = _ask(port)

    assert [s for _, s, _ in results if s != 200] == []  # not one failed request across the swap
    before = [new for t, _, new in results if t < switched - 1.0]
    after = [new for t, _, new in results if t > switched + 0.1]
    assert before and after
    assert not any(before)
    assert all(after)  # never an old-build answer once the new build is live
    assert ready["build_id"] == second["build_id"] and "damaged" in ready["index_reload"]["refused"]["target"]
    assert "rebuild" in ready["index_reload"]["refused"]["detail"] and status_after == 200
