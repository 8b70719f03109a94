"""Async SDK clients kept one per event loop, and closed when their loop shuts down.

A connection pool belongs to the loop that opened it. The ASGI server runs one loop for its
lifetime, but workers and tests may run each job under a fresh `asyncio.run`; a client cached
across those loops would hand out dead connections, and one never closed leaks its sockets.
"""

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Generic, TypeVar

Client = TypeVar("Client")


class PerLoopClients(Generic[Client]):
    def __init__(
        self, create: Callable[[], Client], close: Callable[[Client], Awaitable[None]]
    ) -> None:
        self._create = create
        self._close = close
        self._entries: dict[asyncio.AbstractEventLoop, tuple[Client, AsyncIterator[None]]] = {}

    async def get(self) -> Client:
        loop = asyncio.get_running_loop()
        entry = self._entries.get(loop)
        if entry is None:
            self._forget_closed_loops()
            client = self._create()
            closer = self._close_at_loop_shutdown(client)
            await anext(closer)
            entry = self._entries[loop] = (client, closer)
        return entry[0]

    def __len__(self) -> int:
        return len(self._entries)

    async def _close_at_loop_shutdown(self, client: Client) -> AsyncIterator[None]:
        """A parked async generator: a loop closes every live one as it shuts down (what
        `asyncio.run` and servers do), and this one's `finally` then closes the client."""
        try:
            yield
        finally:
            await self._close(client)

    def _forget_closed_loops(self) -> None:
        for loop in [loop for loop in self._entries if loop.is_closed()]:
            self._entries.pop(loop, None)
