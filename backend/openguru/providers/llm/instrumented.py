"""An LLM that records each call's latency, outcome and token usage as Prometheus series
(openguru.core.metrics) and otherwise passes everything through."""

import time
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from openguru.core.metrics import llm_call_record
from openguru.providers.llm.base import (
    LLM,
    ChatMessage,
    Completion,
    JsonCompletion,
    StreamChunk,
    Usage,
    stream_close,
)


class InstrumentedLLM:
    def __init__(self, inner: LLM) -> None:
        self._inner = inner

    def __repr__(self) -> str:
        return f"InstrumentedLLM({self._inner!r})"

    @property
    def model(self) -> str:
        return self._inner.model

    def _record(self, operation: str, started: float, outcome: str, usage: Usage | None) -> None:
        llm_call_record(
            model=self._inner.model,
            operation=operation,
            outcome=outcome,
            seconds=time.perf_counter() - started,
            prompt=usage.prompt_tokens if usage else 0,
            completion=usage.completion_tokens if usage else 0,
        )

    async def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
    ) -> Completion:
        started = time.perf_counter()
        try:
            result = await self._inner.complete(
                messages, max_tokens=max_tokens, temperature=temperature
            )
        except BaseException:
            self._record("complete", started, "error", None)
            raise
        self._record("complete", started, "ok", result.usage)
        return result

    async def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
    ) -> AsyncIterator[StreamChunk]:
        started = time.perf_counter()
        inner = self._inner.stream(messages, max_tokens=max_tokens, temperature=temperature)
        prompt = completion = 0
        outcome = "error"
        try:
            async for chunk in inner:
                if chunk.usage:
                    prompt += chunk.usage.prompt_tokens
                    completion += chunk.usage.completion_tokens
                yield chunk
            outcome = "ok"
        finally:
            await stream_close(inner)  # a reader that stopped early closed this generator
            self._record("stream", started, outcome, Usage(prompt, completion))

    async def complete_json(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: Mapping[str, Any],
        name: str,
        max_tokens: int | None = None,
    ) -> JsonCompletion:
        started = time.perf_counter()
        try:
            result = await self._inner.complete_json(
                messages, schema=schema, name=name, max_tokens=max_tokens
            )
        except BaseException:
            self._record("complete_json", started, "error", None)
            raise
        self._record("complete_json", started, "ok", result.usage)
        return result
