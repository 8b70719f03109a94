"""A loopback stand-in for the Slack Web API (`chat.postMessage`, `chat.update`,
`chat.postEphemeral`): it checks the bot token, records each call and answers as Slack does,
`{"ok": true, "ts": …}`, or, for calls `rate_limit_next` names, HTTP 429 with Retry-After
(Slack's rate limiting; those calls are in `limited`, not `calls`); and `oauth.v2.access`, which trades an install's one-time code for a
workspace's bot token when the app's client id and secret (HTTP Basic) are right. Point
`SLACK_API_URL` at `api_url`."""

from __future__ import annotations

import base64
import itertools
import re
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tests.fakes.loopback import FakeHandler, HttpFailure, LoopbackApp, Route


@dataclass(frozen=True)
class SlackCall:
    method: str  # "chat.postMessage", "chat.update", "chat.postEphemeral"
    body: dict[str, Any]
    ts: str = ""  # the message's ts, as answered (new for a post, the edited one for an update)
    at: float = 0.0  # time.monotonic() when the call arrived


@dataclass(frozen=True)
class OAuthGrant:
    """What Slack hands out for one install code."""

    team_id: str
    team_name: str
    bot_token: str
    bot_user_id: str = "U0BOT"


class FakeSlackServer(LoopbackApp):
    error_statuses: ClassVar[Mapping[int, str]] = {}
    # The Slack app's credentials, and the codes its consent page has issued.
    client_id, client_secret = "1234.5678", "app-client-secret"

    def __init__(self, *, token: str, **options: Any) -> None:
        super().__init__(**options)
        self.token = token
        self.calls: list[SlackCall] = []
        self.limited: list[SlackCall] = []  # the calls answered 429
        self._to_limit: dict[str, tuple[int, int]] = {}  # method: (calls left, Retry-After)
        self._ts = itertools.count(1)
        self._calls_lock = threading.Lock()
        self.codes: dict[str, OAuthGrant] = {}

    @property
    def api_url(self) -> str:
        return f"{self.origin}/api/"

    def routes(self) -> list[tuple[str, re.Pattern[str], Route]]:
        method = re.compile(r"/api/(chat\.postMessage|chat\.update|chat\.postEphemeral)")
        return [
            ("POST", method, self._chat),
            ("POST", re.compile(r"/api/oauth\.v2\.access"), self._oauth),
        ]

    def error_body(self, status: int, message: str) -> object:
        return {"ok": False, "error": message}

    def rate_limit_next(self, method: str, *, count: int = 1, retry_after: int = 1) -> None:
        """The next `count` calls of `method` get 429 `ratelimited` with `Retry-After`."""
        with self._calls_lock:
            self._to_limit[method] = (count, retry_after)

    def of(self, method: str) -> list[dict[str, Any]]:
        with self._calls_lock:
            return [call.body for call in self.calls if call.method == method]

    def _chat(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        if handler.headers.get("Authorization") != f"Bearer {self.token}":
            handler.send_json(200, {"ok": False, "error": "invalid_auth"})  # Slack's way
            return
        if not body.get("channel"):
            raise HttpFailure(200, "channel_not_found")
        arrived = time.monotonic()
        with self._calls_lock:
            left, retry_after = self._to_limit.get(match.group(1), (0, 0))
            if left:
                self._to_limit[match.group(1)] = (left - 1, retry_after)
                self.limited.append(SlackCall(match.group(1), body, at=arrived))
        if left:
            error = {"ok": False, "error": "ratelimited"}
            handler.send_json(429, error, headers={"Retry-After": str(retry_after)})
            return
        with self._calls_lock:
            ts = body.get("ts") or f"1700000000.{next(self._ts):06d}"
            self.calls.append(SlackCall(match.group(1), body, ts=ts, at=arrived))
        handler.send_json(200, {"ok": True, "channel": body["channel"], "ts": ts})

    def _oauth(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        expected = base64.b64encode(f"{self.client_id}:{self.client_secret}".encode()).decode()
        if handler.headers.get("Authorization") != f"Basic {expected}":
            handler.send_json(200, {"ok": False, "error": "invalid_client_id"})
            return
        grant = self.codes.pop(str(body.get("code", "")), None)  # a code works once
        if grant is None:
            handler.send_json(200, {"ok": False, "error": "invalid_code"})
            return
        handler.send_json(
            200,
            {
                "ok": True,
                "access_token": grant.bot_token,
                "token_type": "bot",
                "scope": "app_mentions:read,chat:write",
                "bot_user_id": grant.bot_user_id,
                "app_id": "A0APP",
                "team": {"id": grant.team_id, "name": grant.team_name},
                "enterprise": None,
                "is_enterprise_install": False,
            },
        )
