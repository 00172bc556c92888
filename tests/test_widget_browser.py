"""The chat widget in a real browser: Debian's Chromium driven by Playwright, against real servers.

`make test` installs Chromium with apt (`make browser`); nothing is downloaded by Playwright.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOT = Path(__file__).resolve().parent.parent / "var" / "screenshots" / "widget.png"
HOSTILE_CSS = "* { box-sizing: content-box !important; padding: 9px !important; margin: 7px !important; } " \
              "button { width: 300px !important; height: 90px !important; font-size: 40px !important; } " \
              "div { border: 5px solid red !important; display: inline !important; }"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_server(index_dir: Path, tmp: Path, allowed_origins: list[str], **settings: str) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = {**os.environ, "KB_INDEX_DIR": str(index_dir), "KB_PORT": str(port), "KB_FEEDBACK_DB": str(tmp / "feedback.sqlite3"),
           "KB_CORS_ALLOW_ORIGINS": json.dumps(allowed_origins), "KB_RATE_LIMIT_PER_MINUTE": "1000", **settings}
    process = subprocess.Popen([sys.executable, "-m", "kb.cli", "serve", "--host", "127.0.0.1"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(base + "/readyz", timeout=2):
                return process, base
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise AssertionError("server did not start: " + (process.stdout.read() or "")) from None
            time.sleep(0.5)


def _static_site(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.fail("Chromium is missing: `make browser` installs Debian's chromium package")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=str(CHROMIUM), args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", "--disable-quic"])
        yield instance
        instance.close()


@pytest.fixture(scope="module")
def sites(tmp_path_factory, built_index_dir):
    """The API, one host site that is allowed to call it, and one that is not."""
    tmp = tmp_path_factory.mktemp("sites")
    allowed_dir, other_dir = tmp / "allowed", tmp / "other"
    allowed_dir.mkdir()
    other_dir.mkdir()
    allowed, allowed_url = _static_site(allowed_dir)
    other, other_url = _static_site(other_dir)
    process, api = _start_server(built_index_dir, tmp, [allowed_url])
    page = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>{{style}}</head>'
            f'<body><h1>A host page</h1><script src="{api}/widget.js" data-endpoint="{api}" data-open="true" defer></script></body></html>')
    for folder in (allowed_dir, other_dir):
        (folder / "plain.html").write_text(page.replace("{style}", ""), encoding="utf-8")
        (folder / "zh.html").write_text(page.replace("{style}", "").replace('lang="en"', 'lang="zh-CN"'), encoding="utf-8")
        (folder / "ru-option.html").write_text(page.replace("{style}", "").replace("data-open", 'data-lang="ru" data-open'),
                                               encoding="utf-8")
        (folder / "hostile.html").write_text(page.replace("{style}", f"<style>{HOSTILE_CSS}</style>"), encoding="utf-8")
    yield {"api": api, "allowed": allowed_url, "other": other_url, "feedback": tmp / "feedback.sqlite3"}
    process.terminate()
    process.wait(timeout=20)
    allowed.shutdown()
    other.shutdown()


def _ask(page, question: str) -> None:
    before = page.locator("kb-chat .msg.bot, kb-chat .msg.error").count()
    box = page.locator("kb-chat textarea")
    box.fill(question)
    box.press("Enter")
    page.wait_for_function(
        "n => document.querySelector('kb-chat').shadowRoot.querySelectorAll('.msg.bot, .msg.error').length > n",
        arg=before, timeout=60000)


def test_demo_page_conversation_markers_and_feedback(browser, sites):
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    page.goto(sites["api"] + "/")
    page.locator("kb-chat button.launcher").click()
    assert page.locator("kb-chat .panel").is_visible()
    for question in ("Trn1的FP32算力是多少？", "Сколько стоит час работы восьми процессоров Gaudi?",
                     "How much device memory does a Trainium2 chip have?"):
        _ask(page, question)
        last = page.locator("kb-chat .msg.bot").last
        assert last.locator(".answer").inner_text().strip()
        assert last.locator(".card").count() >= 1
        assert last.locator(".marker").count() >= 1, last.inner_text()
    last = page.locator("kb-chat .msg.bot").last
    marker = last.locator(".marker").first
    n = marker.inner_text().strip("[]")
    marker.click()
    focused = page.evaluate("document.querySelector('kb-chat').shadowRoot.activeElement.id")
    assert focused.endswith(f"-{n}")
    assert "target" in last.locator(f"#{focused}").get_attribute("class")
    # the quoted sentence is highlighted: marked in prose, or its row in a table
    assert last.locator(".card mark").count() + last.locator(".card tr.quoted").count() >= 1
    page.screenshot(path=str(SCREENSHOT.parent.mkdir(parents=True, exist_ok=True) or SCREENSHOT))
    last.locator(".feedback button").first.click()
    last.locator(".feedback [role=status]").wait_for(timeout=10000)
    with sqlite3.connect(sites["feedback"]) as db:
        rows = db.execute("SELECT question, rating, chunk_ids FROM feedback").fetchall()
    assert rows and rows[-1][0] == "How much device memory does a Trainium2 chip have?" and rows[-1][1] == "up"
    assert json.loads(rows[-1][2])
    assert SCREENSHOT.read_bytes()[:4] == b"\x89PNG"
    page.close()


def test_keyboard_shift_enter_and_escape(browser, sites):
    page = browser.new_page()
    page.goto(sites["api"] + "/")
    page.locator("kb-chat button.launcher").click()
    box = page.locator("kb-chat textarea")
    box.type("line one")
    box.press("Shift+Enter")
    box.type("line two")
    assert box.input_value() == "line one\nline two"
    box.press("Escape")
    assert not page.locator("kb-chat .panel").is_visible()
    page.close()


def test_allowed_origin_works_and_other_origin_is_refused(browser, sites):
    page = browser.new_page()
    page.goto(sites["allowed"] + "/plain.html")
    _ask(page, "How much device memory does a Trainium2 chip have?")
    assert page.locator("kb-chat .msg.bot .card").count() >= 1
    page.close()

    page = browser.new_page()
    page.goto(sites["other"] + "/plain.html")
    _ask(page, "How much device memory does a Trainium2 chip have?")
    error = page.locator("kb-chat .msg.error").last.inner_text()
    assert "not allowed" in error
    assert page.locator("kb-chat .msg.bot").count() == 0
    page.close()


def test_host_css_does_not_change_the_widget(browser, sites):
    boxes = {}
    for name in ("plain", "hostile"):
        page = browser.new_page(viewport={"width": 1000, "height": 760})
        page.goto(f"{sites['allowed']}/{name}.html")
        page.locator("kb-chat .panel").wait_for()
        boxes[name] = [page.locator(f"kb-chat {sel}").bounding_box()
                       for sel in (".panel", "header", "textarea", "form button", "button.launcher")]
        page.close()
    assert boxes["plain"] == boxes["hostile"]


@pytest.mark.parametrize("page_name, expected", [("zh.html", "AI 硬件问答"), ("ru-option.html", "Вопросы об оборудовании для ИИ"),
                                                 ("plain.html", "Ask about AI hardware")])
def test_interface_language_follows_option_or_page(browser, sites, page_name, expected):
    page = browser.new_page()
    page.goto(f"{sites['allowed']}/{page_name}")
    assert page.locator("kb-chat header .heading").inner_text() == expected
    page.close()


def test_narrow_screen(browser, sites):
    page = browser.new_page(viewport={"width": 360, "height": 700})
    page.goto(sites["allowed"] + "/plain.html")
    panel = page.locator("kb-chat .panel").bounding_box()
    assert panel["x"] >= 0 and panel["x"] + panel["width"] <= 360
    page.close()


XSS_ARTICLE = """---
id: xss-test-article
title: Gaudi safety test
lang: en
source:
  url: https://example.org/xss
  raw_file: none.txt
publisher: Test
published: 2026-01-01
license: test
---

# Gaudi safety test

The Gaudi accelerator review says <img src=x onerror="window.__xss=1"> is not an image. A second line has <script>window.__xss=2</script> inside it.
"""


def test_article_with_markup_renders_inert(browser, tmp_path, default_encoder):
    from kb.build import build_index

    corpus = tmp_path / "corpus"
    (corpus / "en").mkdir(parents=True)
    (corpus / "en" / "xss-test-article.md").write_text(XSS_ARTICLE, encoding="utf-8")
    build_index(corpus, tmp_path / "index", default_encoder, progress=False)
    # one hostile article and no fact table: the domain gate is off, so its passage is shown whatever it scores
    process, api = _start_server(tmp_path / "index", tmp_path, [], KB_ANSWER_MIN_DOMAIN="-1e9", KB_ANSWER_MIN_SCORE="-1e9")
    try:
        page = browser.new_page()
        page.on("dialog", lambda dialog: pytest.fail("a dialog opened: script ran"))
        page.goto(api + "/")
        page.locator("kb-chat button.launcher").click()
        _ask(page, "What does the Gaudi review say?")
        shadow_tags = page.evaluate("[...document.querySelector('kb-chat').shadowRoot.querySelectorAll('img, script')].length")
        assert shadow_tags == 0
        assert "<img src=x onerror" in page.locator("kb-chat .msg.bot").last.inner_text()
        assert page.evaluate("window.__xss") is None
        with urllib.request.urlopen(api + "/articles/xss-test-article") as response:
            article_html = response.read().decode()
        assert "<script>window" not in article_html and "&lt;script&gt;" in article_html
        page.close()
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_spec_answer_renders_a_table_with_sources_and_disagreement(browser, sites):
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    page.goto(sites["api"] + "/")
    page.locator("kb-chat button.launcher").click()
    _ask(page, "B200有多少HBM？")
    last = page.locator("kb-chat .msg.bot").last
    assert "来源不一致" in last.locator("p.spec-answer").inner_text()
    rows = last.locator("table.specs tr.spec")
    assert rows.count() >= 2
    values = [rows.nth(i).locator("td.value").inner_text() for i in range(rows.count())]
    assert any("180 GB" in v for v in values) and any("192 GB" in v for v in values)
    assert last.locator("table.specs tr.conflict").count() >= 2
    link = rows.first.locator("a")
    assert "/articles/" in link.get_attribute("href") and link.get_attribute("title")  # the quote on hover
    assert last.locator(".card").count() >= 1  # the passages are still there
    # a comparison from a relation the corpus states leads too, though the table has no value of either side
    _ask(page, "Does the MI300X have more compute units than the MI250X?")
    lead = page.locator("kb-chat .msg.bot").last.locator("p.spec-answer.lead")
    assert lead.inner_text().startswith("AMD Instinct MI300X: 40% higher")
    page.close()


@pytest.mark.parametrize(("question", "words"), [
    ("What is a good recipe for banana bread?", "outside what this assistant knows"),
    ("Какой рецепт у борща?", "вне моей темы"),
    ("红烧肉怎么做？", "超出了我的范围"),
])
def test_off_topic_question_is_declined_politely_in_its_language_with_suggestions(browser, sites, question, words):
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    page.goto(sites["allowed"] + "/plain.html")  # an English page: the decline follows the question, not the page
    _ask(page, question)
    last = page.locator("kb-chat .msg.bot").last
    assert words in last.locator("p.decline").inner_text()
    suggestions = last.locator(".suggestions button")
    assert suggestions.count() >= 2
    assert last.locator(".card").count() == 0  # unrelated passages are not offered as if they answered
    before = page.locator("kb-chat .msg.bot").count()
    suggestions.first.click()  # a suggestion is asked as it is
    page.wait_for_function(
        "n => document.querySelector('kb-chat').shadowRoot.querySelectorAll('.msg.bot').length > n", arg=before,
        timeout=60000)
    assert page.locator("kb-chat .msg.bot").last.locator(".marker").count() >= 1
    page.close()


def test_quote_in_another_language_is_labelled_and_table_rows_render_as_tables(browser, sites):
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    page.goto(sites["api"] + "/")
    page.locator("kb-chat button.launcher").click()
    _ask(page, "Сколько памяти HBM у B200?")  # a Russian question whose evidence is an English or Chinese table row
    last = page.locator("kb-chat .msg.bot").last
    label = last.locator(".answer .source-lang")
    assert label.count() == 1 and "цитата" in label.inner_text()
    quoted = last.locator(".card table.row tr.quoted")
    assert quoted.count() >= 1, last.inner_html()
    assert "|" not in quoted.first.inner_text()  # cells, not Markdown pipes
    assert quoted.first.locator("td").count() >= 2
    page.close()
