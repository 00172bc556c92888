"""Thumbs up and down from the widget, kept in SQLite so nothing is lost on restart."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
import threading
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


class FeedbackStore:
    """One SQLite file; each write is its own committed transaction."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        with self._connect() as db:
            db.execute(_SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=10)

    def add(self, question: str, rating: str, chunk_ids: list[str], answer: str | None, index_build: str,
            client: str | None) -> int:
        with self._lock, self._connect() as db:
            cursor = db.execute(
                "INSERT INTO feedback (received_at, question, rating, chunk_ids, answer, index_build, client) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), question, rating,
                 json.dumps(chunk_ids), answer, index_build, client))
            return int(cursor.lastrowid)

    def all(self) -> list[dict]:
        with self._connect() as db:
            db.row_factory = sqlite3.Row
            return [dict(r) for r in db.execute("SELECT * FROM feedback ORDER BY id")]
