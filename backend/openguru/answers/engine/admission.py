"""Load shedding: how many answers one server process serves at once, on every channel.

Past its capacity a server that takes every ask only makes every answer late (each waits its
turn for the CPU behind all the others) and holds ever more streams in memory. So each process
serves at most `ANSWER_MAX_IN_FLIGHT` answers at once, from the ask to the end of its stream
(what holds memory and an LLM connection, and what grows when the CPU falls behind); up to
`ANSWER_MAX_QUEUED` more wait at most `ANSWER_QUEUE_WAIT_SECONDS` for one to end, which smooths
a short burst; any other ask is refused at once with 503 `overloaded` and Retry-After, which a
client or a load balancer can act on, instead of an answer that comes too late to matter.

Every channel that answers over HTTP asks through `admitted_ask` (the internal stream and JSON
endpoints, API v1, chat completions, the widget, MCP); the bots answer from their own processes.
"""

import asyncio
import math
import weakref
from collections.abc import AsyncGenerator

from django.conf import settings

from openguru.answers.engine.ask import AskRequest, Providers, ask
from openguru.answers.engine.events import AnswerEvent
from openguru.core.errors import DomainError, ErrorCode

OVERLOADED_MSG = "The server is answering as many questions as it can; try again in a moment."


class AnswerSlots:
    """The answers one event loop serves at once (`limit`), and the asks that may wait for one
    (`queue`, each at most `wait` seconds). A limit of 0 admits everything."""

    def __init__(self, *, limit: int, queue: int, wait: float) -> None:
        self.limit, self.queue, self.wait = limit, queue, wait
        self._free = asyncio.Semaphore(max(limit, 1))
        self.waiting = 0

    @property
    def retry_after(self) -> int:
        """Seconds a refused client should wait: about as long as an admitted one may queue."""
        return max(1, math.ceil(self.wait))

    def _refusal(self) -> DomainError:
        return DomainError(ErrorCode.OVERLOADED, OVERLOADED_MSG, retry_after=self.retry_after)

    async def enter(self) -> None:
        """Take a slot, waiting for one if the queue has room; else raise `overloaded`."""
        if self.limit <= 0:
            return
        if not self._free.locked():
            await self._free.acquire()  # free now: returns without suspending
            return
        if self.waiting >= self.queue or self.wait <= 0:
            raise self._refusal()
        self.waiting += 1
        try:
            async with asyncio.timeout(self.wait):
                await self._free.acquire()
        except TimeoutError:
            raise self._refusal() from None
        finally:
            self.waiting -= 1

    def leave(self) -> None:
        if self.limit > 0:
            self._free.release()


# One per event loop: asyncio primitives belong to the loop they were first used on, and a
# server process runs one loop (tests start several, one after another).
_slots: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AnswerSlots]" = (
    weakref.WeakKeyDictionary()
)


def answer_slots() -> AnswerSlots:
    loop = asyncio.get_running_loop()
    slots = _slots.get(loop)
    if slots is None:
        slots = AnswerSlots(
            limit=settings.ANSWER_MAX_IN_FLIGHT,
            queue=settings.ANSWER_MAX_QUEUED,
            wait=settings.ANSWER_QUEUE_WAIT_SECONDS,
        )
        _slots[loop] = slots
    return slots


async def admitted_ask(
    request: AskRequest, providers: Providers
) -> AsyncGenerator[AnswerEvent, None]:
    """`answers.engine.ask.ask` within the process's capacity. The first `anext` waits for a slot
    or raises `DomainError(overloaded)` (503 with Retry-After) before any event, so a channel
    answers it as any error before its first byte; the slot is given back when the stream ends
    or is closed. Taking the slot inside the generator means one never started holds none."""
    slots = answer_slots()
    await slots.enter()
    try:
        events = ask(request, providers)
        try:
            async for event in events:
                yield event
        finally:
            await events.aclose()
    finally:
        slots.leave()
