"""A loopback stand-in for the Discord HTTP API (what discord.py's `HTTPClient` calls): the bot's
own user and application, messages sent and edited in channels, threads started on a message, and where the
gateway is (`gateway_url`: the gateway stand-in, discord_gateway.py). It checks the bot token
(401 otherwise, as Discord does; `token` is the one it accepts, `also_accepted` more of them)
and records every message and edit. Point `discord.http.Route.BASE` (the listener:
`DISCORD_API_URL`) at `api_url`."""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tests.fakes.loopback import FakeHandler, HttpFailure, LoopbackApp, Route, _Server

BOT_ID = "900000000000000001"


@dataclass
class SentMessage:
    id: str
    channel_id: str
    edits: list[str]  # the content after each send or edit, in order

    @property
    def content(self) -> str:
        return self.edits[-1]


class _Handler(FakeHandler):
    def do_PATCH(self) -> None:
        self.server.app.dispatch(self)


def _user(user_id: str, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": user_id, "username": name, "discriminator": "0", "avatar": None, "bot": bot}


class FakeDiscordServer(LoopbackApp):
    error_statuses: ClassVar[Mapping[int, str]] = {401: "401: Unauthorized"}

    def __init__(self, *, token: str, **options: Any) -> None:
        super().__init__(**options)
        self.token = token
        self.also_accepted: set[str] = set()
        self.gateway_url = "ws://127.0.0.1:9/"  # nothing listens there until a test says
        self.messages: list[SentMessage] = []
        self.threads: list[dict[str, Any]] = []
        self._ids = itertools.count(910_000_000_000_000_000)
        self._state_lock = threading.Lock()

    def _open(self) -> _Server:
        httpd = _Server((self.host, self.port), _Handler)
        httpd.app = self
        self.port = httpd.server_address[1]
        return httpd

    @property
    def api_url(self) -> str:
        return f"{self.origin}/api/v10"

    def routes(self) -> list[tuple[str, re.Pattern[str], Route]]:
        return [
            ("GET", re.compile(r"/api/v10/users/@me"), self._me),
            ("GET", re.compile(r"/api/v10/oauth2/applications/@me"), self._application),
            ("GET", re.compile(r"/api/v10/gateway/bot"), self._gateway),
            ("POST", re.compile(r"/api/v10/channels/(\d+)/messages"), self._send),
            ("PATCH", re.compile(r"/api/v10/channels/(\d+)/messages/(\d+)"), self._edit),
            (
                "POST",
                re.compile(r"/api/v10/channels/(\d+)/messages/(\d+)/threads"),
                self._start_thread,
            ),
        ]

    def error_body(self, status: int, message: str) -> object:
        return {"message": message, "code": 0}

    def in_channel(self, channel_id: str) -> list[SentMessage]:
        with self._state_lock:
            return [m for m in self.messages if m.channel_id == channel_id]

    def authorized(self, token: str) -> bool:
        return token == self.token or token in self.also_accepted

    def _authorize(self, handler: FakeHandler) -> None:
        header = handler.headers.get("Authorization") or ""
        if not header.startswith("Bot ") or not self.authorized(header.removeprefix("Bot ")):
            raise HttpFailure(401, "401: Unauthorized")

    def _me(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        self._authorize(handler)
        handler.send_json(200, _user(BOT_ID, "guru", bot=True))

    def _application(
        self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]
    ) -> None:
        """The bot's application, which discord.py reads as it logs in."""
        self._authorize(handler)
        application = {
            "id": BOT_ID,
            "name": "guru",
            "description": "",
            "icon": None,
            "bot_public": False,
            "bot_require_code_grant": False,
            "owner": _user("100000000000000001", "admin"),
            "verify_key": "0" * 64,
            "flags": 0,
        }
        handler.send_json(200, application)

    def _gateway(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        self._authorize(handler)
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        handler.send_json(200, {"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    def _message(self, message: SentMessage) -> dict[str, Any]:
        return {
            "id": message.id,
            "channel_id": message.channel_id,
            "author": _user(BOT_ID, "guru", bot=True),
            "content": message.content,
            "timestamp": "2025-01-01T12:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
        }

    def _send(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        self._authorize(handler)
        message = SentMessage(str(next(self._ids)), match.group(1), [str(body.get("content"))])
        with self._state_lock:
            self.messages.append(message)
        handler.send_json(200, self._message(message))

    def _edit(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        self._authorize(handler)
        content = str(handler.read_json().get("content"))  # a PATCH body is read here
        with self._state_lock:
            message = next((m for m in self.messages if m.id == match.group(2)), None)
            if message is None:
                raise HttpFailure(404, "Unknown Message")
            message.edits.append(content)
        handler.send_json(200, self._message(message))

    def _start_thread(
        self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]
    ) -> None:
        self._authorize(handler)
        thread = {
            "id": str(next(self._ids)),
            "type": 11,  # a public thread
            "guild_id": "0",
            "parent_id": match.group(1),
            "owner_id": BOT_ID,
            "name": str(body.get("name")),
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": "2025-01-01T12:00:00+00:00",
                "locked": False,
            },
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
        }
        with self._state_lock:
            self.threads.append(thread)
        handler.send_json(201, thread)
