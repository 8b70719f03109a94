"""Events the answer engine emits; the SSE view and the JSON view both consume them."""

from dataclasses import dataclass, field
from typing import Any, Literal

EventName = Literal["meta", "delta", "done", "error"]


@dataclass(frozen=True)
class AnswerEvent:
    name: EventName
    data: dict[str, Any] = field(default_factory=dict)


def meta(**data: Any) -> AnswerEvent:
    return AnswerEvent("meta", data)


def delta(text: str) -> AnswerEvent:
    return AnswerEvent("delta", {"text": text})


def done(**data: Any) -> AnswerEvent:
    return AnswerEvent("done", data)


def error(code: str, msg: str) -> AnswerEvent:
    return AnswerEvent("error", {"code": code, "msg": msg})
