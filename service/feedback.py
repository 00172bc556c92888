"""Thumbs up and down from the widget, kept in SQLite so nothing is lost on restart."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from contextlib import closing
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS feedback (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    received_at TEXT NOT NULL,
    question TEXT NOT NULL,
    rating TEXT NOT NULL CHECK (rating IN ('up', 'down')),
    chunk_ids TEXT NOT NULL,
    answer TEXT,
    index_build TEXT NOT NULL,
    client TEXT
)
"""


class FeedbackUnavailable(Exception):
    """The database cannot take the write now (locked, read-only, missing); the client may retry."""


class FeedbackStore:
    """One SQLite file; each write is its own committed transaction.

    A write waits at most ``busy_timeout`` seconds for a lock held elsewhere and then fails with
    :class:`FeedbackUnavailable`; the last failure stays visible (``/readyz``) until a write succeeds.
    A store whose file cannot be created starts anyway, unavailable, so questions are still answered.
    """

    def __init__(self, path: Path, busy_timeout: float = 1.0) -> None:
        self.path = Path(path)
        self.busy_timeout = busy_timeout
        self.last_error: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with closing(self._connect()) as db, db:
                db.execute(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            self.last_error = f"{self.path}: {exc}"

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=self.busy_timeout)

    def status(self) -> dict:
        return {"status": "ok" if self.last_error is None else "unavailable", "detail": self.last_error,
                "backend": "sqlite"}

    def add(self, question: str, rating: str, chunk_ids: list[str], answer: str | None, index_build: str,
            client: str | None) -> int:
        try:
            # No lock of our own: SQLite serializes writers, and one waiting lock per write keeps the
            # wait of each at busy_timeout; closing() because `with connection` only commits.
            with closing(self._connect()) as db, db:
                db.execute(_SCHEMA)  # cheap when present; recreates a table lost with its file
                cursor = db.execute(
                    "INSERT INTO feedback (received_at, question, rating, chunk_ids, answer, index_build, client) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), question, rating,
                     json.dumps(chunk_ids), answer, index_build, client))
                row = int(cursor.lastrowid)
        except (OSError, sqlite3.Error) as exc:
            self.last_error = f"{self.path}: {exc}"
            raise FeedbackUnavailable(str(exc)) from None
        self.last_error = None
        return row

    def all(self) -> list[dict]:
        with closing(self._connect()) as db:
            db.row_factory = sqlite3.Row
            return [dict(r) for r in db.execute("SELECT * FROM feedback ORDER BY id")]

