"""The UI server's revalidation endpoint (`frontend/app/api/revalidate/route.ts`) on loopback:
it records what Django asks it to drop and answers as the route does."""

import re
from typing import Any

from tests.fakes.loopback import FakeHandler, LoopbackApp, Route


class NextRevalidateServer(LoopbackApp):
    def routes(self) -> list[tuple[str, re.Pattern[str], Route]]:
        return [("POST", re.compile(r"/api/revalidate"), self._revalidate)]

    def error_body(self, status: int, message: str) -> object:
        return {"code": "error", "msg": message}

    def _revalidate(self, handler: FakeHandler, _: re.Match[str], body: dict[str, Any]) -> None:
        handler.send_json(200, {"paths": len(body["paths"]), "gurus": len(body["gurus"])})

    def posted(self) -> list[dict[str, Any]]:
        """The bodies posted, each with the Authorization header it came with."""
        return [
            {**request.body, "authorization": request.headers.get("authorization")}
            for request in self.requests
        ]
