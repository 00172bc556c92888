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

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._read_timer is None and (self.cycle is None or self.cycle.response_complete):
            self._arm()  # the first bytes of the next request on a kept-alive connection
        super().data_received(data)
        if self.cycle is not None and not self.cycle.more_body and not self.cycle.response_complete:
            self._disarm()  # this request is in whole; the app's own time is not limited here

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._read_timer = self.loop.call_later(_read_timeout_s, self._timed_out)

    def _disarm(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None

    def _timed_out(self) -> None:
        self._read_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete or not self.cycle.response_started:
            self.transport.write(_timeout_response())
        self.transport.close()
