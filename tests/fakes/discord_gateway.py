"""A loopback stand-in for the Discord gateway (the WebSocket discord.py's `DiscordWebSocket`
keeps open), speaking enough of it for one bot in one server: HELLO, IDENTIFY → READY and
GUILD_CREATE (one text channel), HEARTBEAT → HEARTBEAT_ACK, RESUME → RESUMED (or INVALID_SESSION
for a session it no longer knows), and MESSAGE_CREATE on demand. Frames are plain JSON text:
the client asks for `compress=zlib-stream`, but discord.py decompresses binary frames only and
reads text frames as they are, so the query is recorded and otherwise ignored.

The HTTP stand-in (discord_server.py) hands out `url` from `GET /gateway/bot`; READY's
`resume_gateway_url` is `url` + "resume", so a RESUME that arrives there proves the client
followed it. `drop(code)` cuts every connection as Discord does before a reconnect."""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

HELLO, HEARTBEAT, HEARTBEAT_ACK, IDENTIFY, RESUME, INVALID_SESSION = 10, 1, 11, 2, 6, 9
DISPATCH = 0
AUTHENTICATION_FAILED = 4004


@dataclass(eq=False)
class Connection:
    """One WebSocket the client opened: where, with which query, and what it said."""

    path: str
    query: dict[str, str]
    socket: web.WebSocketResponse
    ops: list[int] = field(default_factory=list)  # the op codes the client sent, in order
    session_id: str | None = None  # set once READY or RESUMED is sent: events may flow
    sequence: int = 0


class FakeDiscordGateway:
    def __init__(
        self,
        *,
        authorized: Callable[[str], bool],
        user: dict[str, Any],
        guild_id: str,
        channel_id: str,
        heartbeat_ms: int = 41_250,
    ) -> None:
        self.authorized = authorized  # does Discord accept this bot token?
        self.user = user
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.heartbeat_ms = heartbeat_ms
        self.connections: list[Connection] = []
        self.sessions: set[str] = set()  # the sessions a RESUME may continue
        self._ids = itertools.count(1)
        self._message_ids = itertools.count(800_000_000_000_000_001)
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- lifecycle ---------------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def start(self) -> FakeDiscordGateway:
        app = web.Application()
        app.router.add_get("/", self._serve)
        app.router.add_get("/resume", self._serve)
        self._runner = web.AppRunner(app)
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._call(self._open())
        return self

    async def _open(self) -> None:
        assert self._runner is not None
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    def stop(self) -> None:
        if self._runner is not None:
            self._call(self._runner.cleanup())
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._loop.close()

    def __enter__(self) -> FakeDiscordGateway:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout=10)

    # --- what a test does --------------------------------------------------------------------

    def live(self) -> list[Connection]:
        with self._lock:
            return [c for c in self.connections if c.session_id and not c.socket.closed]

    def wait_live(self, *, connections: int, timeout: float = 30.0) -> Connection:
        """Wait until the `connections`-th connection (counting from 1) has a session going."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                opened = list(self.connections)
            if len(opened) >= connections and opened[connections - 1] in self.live():
                return opened[connections - 1]
            time.sleep(0.02)
        raise AssertionError(f"no live gateway session #{connections}: {self.connections}")

    def dispatch_message(
        self, *, content: str, author: dict[str, Any], mentions: list[dict[str, Any]]
    ) -> str:
        """A MESSAGE_CREATE in the text channel, to every live session; returns its id."""
        message_id = str(next(self._message_ids))
        data = {
            "id": message_id,
            "channel_id": self.channel_id,
            "guild_id": self.guild_id,
            "author": author,
            "member": {
                "roles": [],
                "joined_at": "2025-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
            },
            "content": content,
            "timestamp": "2025-01-01T12:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": mentions,
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
        }
        sessions = self.live()
        assert sessions, "no live gateway session to send the message to"
        for connection in sessions:
            self._call(self._dispatch(connection, "MESSAGE_CREATE", data))
        return message_id

    def drop(self, code: int = 4000, *, forget_sessions: bool = False) -> None:
        """Close every connection with `code`; `forget_sessions`: a RESUME then gets
        INVALID_SESSION and the client must IDENTIFY again."""
        if forget_sessions:
            with self._lock:
                self.sessions.clear()
        for connection in list(self.connections):
            if not connection.socket.closed:
                self._call(connection.socket.close(code=code))

    # --- the protocol ------------------------------------------------------------------------

    async def _serve(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        connection = Connection(request.path, dict(request.query), socket)
        with self._lock:
            self.connections.append(connection)
        await self._send(connection, {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_ms}})
        async for frame in socket:
            if frame.type != WSMsgType.TEXT:
                break
            payload = json.loads(frame.data)
            connection.ops.append(payload["op"])
            await self._answer(connection, payload["op"], payload.get("d"))
        return socket

    async def _answer(self, connection: Connection, op: int, data: Any) -> None:
        if op == HEARTBEAT:
            await self._send(connection, {"op": HEARTBEAT_ACK, "d": None})
        elif op == IDENTIFY:
            if not self.authorized(str(data.get("token"))):
                await connection.socket.close(code=AUTHENTICATION_FAILED)
                return
            await self._identify(connection)
        elif op == RESUME:
            session = str(data.get("session_id"))
            with self._lock:
                known = session in self.sessions
            if not known or not self.authorized(str(data.get("token"))):
                await self._send(connection, {"op": INVALID_SESSION, "d": False})
                return
            connection.sequence = int(data.get("seq") or 0)
            connection.session_id = session
            await self._dispatch(connection, "RESUMED", {})

    async def _identify(self, connection: Connection) -> None:
        session = f"session-{next(self._ids)}"
        with self._lock:
            self.sessions.add(session)
        ready = {
            "v": 10,
            "user": self.user,
            "session_id": session,
            "resume_gateway_url": f"{self.url}resume",
            "guilds": [{"id": self.guild_id, "unavailable": True}],
            "application": {"id": self.user["id"], "flags": 0},
        }
        await self._dispatch(connection, "READY", ready)
        await self._dispatch(connection, "GUILD_CREATE", self._guild())
        connection.session_id = session  # the server is known: messages may come now

    def _guild(self) -> dict[str, Any]:
        channel = {
            "id": self.channel_id,
            "type": 0,
            "name": "help",
            "position": 0,
            "guild_id": self.guild_id,
            "permission_overwrites": [],
        }
        return {
            "id": self.guild_id,
            "name": "Acme",
            "unavailable": False,
            "owner_id": "1",
            "member_count": 2,
            "roles": [],
            "emojis": [],
            "features": [],
            "channels": [channel],
            "threads": [],
            "members": [],
            "voice_states": [],
            "presences": [],
        }

    async def _dispatch(self, connection: Connection, event: str, data: Any) -> None:
        connection.sequence += 1
        await self._send(
            connection, {"op": DISPATCH, "t": event, "s": connection.sequence, "d": data}
        )

    @staticmethod
    async def _send(connection: Connection, payload: dict[str, Any]) -> None:
        if not connection.socket.closed:
            await connection.socket.send_str(json.dumps(payload))
