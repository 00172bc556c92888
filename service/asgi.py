"""The shape the service's own ASGI layers share: HTTP requests go to ``http``, anything else passes through."""

from __future__ import annotations


class HttpLayer:
    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope, receive, send) -> None:
        raise NotImplementedError
