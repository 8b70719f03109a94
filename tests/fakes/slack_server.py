"""A loopback stand-in for the Slack Web API (`chat.postMessage`, `chat.update`,
`chat.postEphemeral`): it checks the bot token, records each call and answers as Slack does,
`{"ok": true, "ts": …}`. Point `SLACK_API_URL` at `api_url`."""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tests.fakes.loopback import FakeHandler, HttpFailure, LoopbackApp, Route


@dataclass(frozen=True)
class SlackCall:
    method: str  # "chat.postMessage", "chat.update", "chat.postEphemeral"
    body: dict[str, Any]


class FakeSlackServer(LoopbackApp):
    error_statuses: ClassVar[Mapping[int, str]] = {}

    def __init__(self, *, token: str, **options: Any) -> None:
        super().__init__(**options)
        self.token = token
        self.calls: list[SlackCall] = []
        self._ts = itertools.count(1)
        self._calls_lock = threading.Lock()

    @property
    def api_url(self) -> str:
        return f"{self.origin}/api/"

    def routes(self) -> list[tuple[str, re.Pattern[str], Route]]:
        method = re.compile(r"/api/(chat\.postMessage|chat\.update|chat\.postEphemeral)")
        return [("POST", method, self._chat)]

    def error_body(self, status: int, message: str) -> object:
        return {"ok": False, "error": message}

    def of(self, method: str) -> list[dict[str, Any]]:
        with self._calls_lock:
            return [call.body for call in self.calls if call.method == method]

    def _chat(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        if handler.headers.get("Authorization") != f"Bearer {self.token}":
            handler.send_json(200, {"ok": False, "error": "invalid_auth"})  # Slack's way
            return
        if not body.get("channel"):
            raise HttpFailure(200, "channel_not_found")
        with self._calls_lock:
            self.calls.append(SlackCall(match.group(1), body))
        ts = body.get("ts") or f"1700000000.{next(self._ts):06d}"
        handler.send_json(200, {"ok": True, "channel": body["channel"], "ts": ts})
