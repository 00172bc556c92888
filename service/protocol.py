"""uvicorn's HTTP/1.1 protocol with a deadline for reading each request, headers and body together.

uvicorn times out only idle keep-alive connections: a client that sent half
a request line, or headers and half a body, held its connection (and a file
descriptor) for as long as it liked, and a stalled body kept SIGTERM waiting.
Here every request must arrive whole within ``read_timeout`` seconds of its
first byte (of the connection, for the first one); a late one gets a 408 and
the connection is closed, which also ends the app's wait in ``receive()``.
"""

from __future__ import annotations

import asyncio
import json

from uvicorn.protocols.http.h11_impl import H11Protocol

from kb.settings import Settings

_read_timeout_s = 10.0


def configure(settings: Settings) -> None:
    """Set the deadline of this process's connections (uvicorn builds the protocol by its class, not an instance)."""
    global _read_timeout_s
    _read_timeout_s = settings.request_read_timeout_s


def _timeout_response() -> bytes:
    body = json.dumps({"type": "about:blank", "title": "Request timeout", "status": 408,
                       "detail": f"the request did not arrive whole within {_read_timeout_s:g} s"}).encode()
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/problem+json\r\nconnection: close\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


class ReadTimeoutH11Protocol(H11Protocol):
    _read_timer: asyncio.TimerHandle | None = None
    _timed_cycle: object | None = None  # the request the running timer is for (None: the next one's first bytes)

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(None)

    def data_received(self, data: bytes) -> None:
        if self._read_timer is None and (self.cycle is None or self.cycle.response_complete):
            self._arm(None)  # the first bytes of the next request on a kept-alive connection
        super().data_received(data)

    def handle_events(self) -> None:
        # Also runs from on_response_complete for a pipelined request already in the buffer, so every
        # request gets its own deadline, however its bytes arrived.
        super().handle_events()
        cycle = self.cycle
        if cycle is None or cycle.response_complete:
            return
        if not cycle.more_body:
            self._disarm()  # this request is in whole; the app's own time is not limited here
        elif self._timed_cycle is not cycle:
            self._arm(cycle)

    def on_response_complete(self) -> None:
        self._disarm()  # whatever was unread of this request, the next one starts its own deadline
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self, cycle) -> None:
        self._disarm()
        self._timed_cycle = cycle
        self._read_timer = self.loop.call_later(_read_timeout_s, self._timed_out)

    def _disarm(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None
        self._timed_cycle = None

    def _timed_out(self) -> None:
        self._read_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete or not self.cycle.response_started:
            self.transport.write(_timeout_response())
        self.transport.close()
