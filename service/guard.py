"""The outermost layer: a request with an unusable ``Host`` is refused, every response gets security headers.

It is plain ASGI and runs before Litestar builds a ``Request``: a ``Host``
such as ``kb.example:abc`` made URL parsing fail inside the error handler
itself, so every route answered with a text/plain 500 and a traceback.
"""

from __future__ import annotations

import json
import re

from service.asgi import HttpLayer

# A host name or IPv4 address, or a bracketed IPv6 address, with an optional numeric port.
HOST = re.compile(rb"^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252})?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$")

# Pages hold no inline script and load nothing from elsewhere; the API is never framed.
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
     b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
]


PORT = re.compile(rb":([0-9]{1,5})$")


def valid_host(value: bytes) -> bool:
    if value == b"":  # allowed by RFC 9112 for a request without an authority
        return True
    if not HOST.match(value):
        return False
    port = PORT.search(value)
    return port is None or 0 < int(port.group(1)) <= 65535


class Guard(HttpLayer):
    async def http(self, scope, receive, send) -> None:
        hosts = [v for k, v in scope.get("headers", ()) if k == b"host"]
        if len(hosts) > 1 or (hosts and not valid_host(hosts[0])):
            await _bad_host(scope, send)
            return

        # Litestar's API docs page (/schema) runs an inline script from a CDN: no CSP there.
        extra = [h for h in SECURITY_HEADERS if h[0] != b"content-security-policy"] \
            if scope.get("path", "").startswith("/schema") else SECURITY_HEADERS

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", ())}
                message = {**message, "headers": list(message.get("headers", ()))
                           + [(k, v) for k, v in extra if k not in present]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _bad_host(scope, send) -> None:
    body = json.dumps({"type": "about:blank", "title": "Bad request", "status": 400,
                       "detail": "the Host header must be one host name or address, with an optional port",
                       "instance": scope.get("path", "")}).encode()
    await send({"type": "http.response.start", "status": 400,
                "headers": [(b"content-type", b"application/problem+json"),
                            (b"content-length", str(len(body)).encode()), *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})
