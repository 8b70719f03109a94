"""The LLM interface. Async because answers stream to many clients from one ASGI process."""

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable


@dataclass(frozen=True)
class ChatMessage:
    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass(frozen=True)
class Completion:
    text: str
    model: str
    usage: Usage = field(default_factory=Usage)


@dataclass(frozen=True)
class JsonCompletion:
    data: dict[str, Any]
    model: str
    usage: Usage = field(default_factory=Usage)


@dataclass(frozen=True)
class StreamChunk:
    """A token delta; the last chunk of a stream may carry only `usage` (empty `delta`)."""

    delta: str
    model: str = ""
    usage: Usage | None = None


@runtime_checkable
class LLM(Protocol):
    """Implementations raise `TransientError` (retryable: timeouts, 429, 5xx) or `DomainError`
    with `PROVIDER_ERROR`; never a raw SDK exception."""

    @property
    def model(self) -> str: ...

    async def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
    ) -> Completion: ...

    def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
    ) -> AsyncIterator[StreamChunk]: ...

    async def complete_json(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: Mapping[str, Any],
        name: str,
        max_tokens: int | None = None,
    ) -> JsonCompletion:
        """Structured output: a JSON object that validates against `schema` (JSON Schema)."""
        ...


async def stream_close(stream: AsyncIterator[StreamChunk]) -> None:
    """Close a stream its reader left early (or a wrapper abandoned), so the provider's HTTP
    connection goes back to the pool now rather than when the garbage collector gets to it."""
    aclose = getattr(stream, "aclose", None)
    if aclose is not None:
        await aclose()
