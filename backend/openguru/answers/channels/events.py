"""Reading the engine's events, as every encoder does: the first one (a refusal or an error
becomes a `DomainError` before the channel has sent anything), the `done` one, an `error`."""

from collections.abc import AsyncIterator
from typing import Any

from openguru.answers.engine.events import AnswerEvent
from openguru.core.errors import DomainError, ErrorCode


def engine_error(data: dict[str, Any]) -> DomainError:
    """The engine's `error` event as the error it was raised as."""
    try:
        code = ErrorCode(data["code"])
    except ValueError:
        code = ErrorCode.INTERNAL
    return DomainError(code, data["msg"])


def refusal(text: str) -> DomainError:
    return DomainError(ErrorCode.NO_ANSWER, text.strip())


async def first_event(events: AsyncIterator[AnswerEvent]) -> AnswerEvent:
    """The engine's first event (meta); an error, or a refusal (`no_answer` with its text),
    is raised instead."""
    event = await anext(events)
    if event.name == "error":
        raise engine_error(event.data)
    if event.data.get("refused"):
        text = "".join([e.data.get("text", "") async for e in events if e.name == "delta"])
        raise refusal(text)
    return event


async def answer_done(events: AsyncIterator[AnswerEvent]) -> dict[str, Any]:
    """The rest of an answer after its meta: the `done` event's data."""
    async for event in events:
        if event.name == "error":
            raise engine_error(event.data)
        if event.name == "done":
            return event.data
    raise DomainError(ErrorCode.INTERNAL, "The answer ended early.")
