"""Feedback in PostgreSQL, for several replicas: the same three calls as the SQLite store.

The schema is plain SQL files in ``service/migrations/`` applied in name
order at start-up and recorded in ``schema_migrations``; an advisory lock
makes replicas that start together apply each file once. (One table does not
warrant a migration tool and the ORM it would bring.) Each write opens its
own short connection with connect and statement timeouts, so a slow or down
server costs a feedback request at most ``busy_timeout`` and questions never
wait on it.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import psycopg
from psycopg.rows import dict_row

from service.feedback import FeedbackUnavailable

MIGRATIONS = Path(__file__).with_name("migrations")
_LOCK_ID = 7_311_202  # pg_advisory_xact_lock key for migrations


def _redacted(dsn: str) -> str:
    info = psycopg.conninfo.conninfo_to_dict(dsn)
    return f"postgresql://{info.get('user', '')}@{info.get('host', '')}:{info.get('port', '')}/{info.get('dbname', '')}"


class PostgresFeedbackStore:
    def __init__(self, dsn: str, busy_timeout: float = 1.0) -> None:
        self.dsn = dsn
        self.name = _redacted(dsn)
        self.busy_timeout = busy_timeout
        self.last_error: str | None = None
        self._migrated = False
        try:
            self.migrate()
        except psycopg.Error as exc:  # a fleet starting before its database: the first write migrates
            self.last_error = f"{self.name}: {exc}".strip()

    def _connect(self) -> psycopg.Connection:
        ms = int(self.busy_timeout * 1000)
        return psycopg.connect(self.dsn, connect_timeout=max(1, math.ceil(self.busy_timeout)),
                               options=f"-c statement_timeout={ms} -c lock_timeout={ms}")

    def migrate(self) -> list[str]:
        """Apply the migration files this database lacks; returns the names applied."""
        applied = []
        with self._connect() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_ID,))
            db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, "
                       "applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
            done = {row[0] for row in db.execute("SELECT version FROM schema_migrations")}
            for path in sorted(MIGRATIONS.glob("*.sql")):
                if path.stem not in done:
                    db.execute(path.read_text(encoding="utf-8"))
                    db.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (path.stem,))
                    applied.append(path.stem)
        self._migrated = True
        return applied

    def status(self) -> dict:
        return {"status": "ok" if self.last_error is None else "unavailable", "detail": self.last_error,
                "backend": "postgresql"}

    def add(self, question: str, rating: str, chunk_ids: list[str], answer: str | None, index_build: str,
            client: str | None) -> int:
        try:
            if not self._migrated:
                self.migrate()
            with self._connect() as db:
                row = db.execute(
                    "INSERT INTO feedback (question, rating, chunk_ids, answer, index_build, client) "
                    "VALUES (%s, %s, %s::jsonb, %s, %s, %s) RETURNING id",
                    (question, rating, json.dumps(chunk_ids), answer, index_build, client)).fetchone()
        except psycopg.Error as exc:
            self.last_error = f"{self.name}: {exc}".strip()
            raise FeedbackUnavailable(str(exc).strip() or type(exc).__name__) from None
        self.last_error = None
        return int(row[0])

    def all(self) -> list[dict]:
        with self._connect() as db, db.cursor(row_factory=dict_row) as cur:
            rows = cur.execute("SELECT * FROM feedback ORDER BY id").fetchall()
        return [{**r, "received_at": r["received_at"].isoformat(timespec="seconds"),
                 "chunk_ids": json.dumps(r["chunk_ids"])} for r in rows]
