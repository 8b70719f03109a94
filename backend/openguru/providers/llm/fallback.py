"""Try a primary LLM, and on a provider failure the same call on a fallback (`LLM_FALLBACK_MODEL`).

A stream falls back only before its first token: once words reached the reader, restarting on
another model would repeat or contradict them, so a failure after that is raised as it is.
"""

import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.providers.llm.base import (
    LLM,
    ChatMessage,
    Completion,
    JsonCompletion,
    StreamChunk,
    stream_close,
)

logger = logging.getLogger(__name__)


def _worth_falling_back(error: DomainError) -> bool:
    return isinstance(error, TransientError) or error.code in (
        ErrorCode.PROVIDER_UNAVAILABLE,
        ErrorCode.PROVIDER_ERROR,
    )


class FallbackLLM:
    def __init__(self, *, primary: LLM, fallback: LLM) -> None:
        self._primary = primary
        self._fallback = fallback

    def __repr__(self) -> str:
        return f"FallbackLLM(primary={self._primary!r}, fallback={self._fallback!r})"

    @property
    def model(self) -> str:
        return self._primary.model

    async def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
    ) -> Completion:
        try:
            return await self._primary.complete(
                messages, max_tokens=max_tokens, temperature=temperature
            )
        except DomainError as error:
            self._raise_unless_worth_falling_back(error)
        return await self._fallback.complete(
            messages, max_tokens=max_tokens, temperature=temperature
        )

    async def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
    ) -> AsyncIterator[StreamChunk]:
        started = False
        primary = self._primary.stream(messages, max_tokens=max_tokens, temperature=temperature)
        try:
            async for chunk in primary:
                started = True
                yield chunk
            return
        except DomainError as error:
            if started:
                raise
            self._raise_unless_worth_falling_back(error)
        finally:
            await stream_close(primary)
        fallback = self._fallback.stream(messages, max_tokens=max_tokens, temperature=temperature)
        try:
            async for chunk in fallback:
                yield chunk
        finally:
            await stream_close(fallback)

    async def complete_json(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: Mapping[str, Any],
        name: str,
        max_tokens: int | None = None,
    ) -> JsonCompletion:
        try:
            return await self._primary.complete_json(
                messages, schema=schema, name=name, max_tokens=max_tokens
            )
        except DomainError as error:
            self._raise_unless_worth_falling_back(error)
        return await self._fallback.complete_json(
            messages, schema=schema, name=name, max_tokens=max_tokens
        )

    def _raise_unless_worth_falling_back(self, error: DomainError) -> None:
        if not _worth_falling_back(error):
            raise error
        logger.warning(
            "LLM %s failed (%s); trying %s.", self._primary.model, error.code, self._fallback.model
        )
