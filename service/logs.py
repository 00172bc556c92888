"""Refused requests cannot fill the disk: their log lines are rate-limited and the rest summarized.

uvicorn logs one access line per request and one warning per unparsable
request; a hostile client sending thousands of bad requests a second once
wrote 115 MB of log in 20 s. Lines for answered requests (status < 400) pass
untouched; of the others at most ``per_minute`` pass each minute, and the
first line after a minute in which some were held back says how many.
"""

from __future__ import annotations

import logging
import threading
import time

SUMMARY = logging.getLogger("kb.service")
REFUSAL_MESSAGES = ("Invalid HTTP request received.", "Exceeded concurrency limit.")


class RefusalLogLimit(logging.Filter):
    def __init__(self, per_minute: int = 20) -> None:
        super().__init__("kb.refusals")
        self.per_minute = per_minute
        self._window_start = time.monotonic()
        self._passed = 0
        self.suppressed = 0  # in the current minute
        self.suppressed_total = 0
        self._lock = threading.Lock()

    @staticmethod
    def is_refusal(record: logging.LogRecord) -> bool:
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) >= 5:
            status = record.args[4]
            return isinstance(status, int) and status >= 400
        return record.getMessage() in REFUSAL_MESSAGES

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.is_refusal(record):
            return True
        with self._lock:
            now = time.monotonic()
            if now - self._window_start >= 60:
                if self.suppressed:
                    # its own record: uvicorn's access formatter needs the access record's own five arguments
                    SUMMARY.warning("%d refused-request log lines suppressed in the last minute", self.suppressed)
                self._window_start, self._passed, self.suppressed = now, 0, 0
            if self._passed < self.per_minute:
                self._passed += 1
                return True
            self.suppressed += 1
            self.suppressed_total += 1
            return False


_installed: RefusalLogLimit | None = None


def limit_refusal_logs(per_minute: int) -> RefusalLogLimit:
    """Attach one shared filter to uvicorn's loggers (once per process)."""
    global _installed
    if _installed is None:
        _installed = RefusalLogLimit(per_minute)
        for name in ("uvicorn.access", "uvicorn.error"):
            logging.getLogger(name).addFilter(_installed)
    return _installed
