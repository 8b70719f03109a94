"""An LLM behind the OpenAI chat-completions API: OpenAI itself, or any server that speaks it
(Ollama, vLLM, OpenRouter, LM Studio...) through `base_url`.

`max_tokens` (not `max_completion_tokens`) is sent because every compatible server reads it.
"""

import asyncio
import logging
import re
import weakref
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import httpx2
import openai
from openai import AsyncOpenAI
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
from openai.types.completion_usage import CompletionUsage

from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.providers.llm.base import ChatMessage, Completion, JsonCompletion, StreamChunk, Usage
from openguru.providers.llm.structured import parse_json_object, schema_instruction

logger = logging.getLogger(__name__)

_SCHEMA_NAME_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")


class OpenAICompatibleLLM:
    def __init__(
        self,
        *,
        api_key: str,
        base_url: str | None,
        model: str,
        timeout: float = 60.0,
        max_retries: int = 1,
    ) -> None:
        self._api_key = api_key
        self._base_url = base_url
        self._model = model
        self._timeout = timeout
        self._max_retries = max_retries
        # One client per event loop: an httpx pool cannot be shared across loops, and workers
        # may run each task in a fresh `asyncio.run`.
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncOpenAI] = (
            weakref.WeakKeyDictionary()
        )
        # Learned on first use: some compatible servers reject `json_schema` output.
        self._json_schema_supported = True

    def __repr__(self) -> str:  # never the key
        return f"OpenAICompatibleLLM(model={self._model!r}, base_url={self._base_url!r})"

    @property
    def model(self) -> str:
        return self._model

    async def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
    ) -> Completion:
        response = await self._create(
            messages=_to_openai(messages), temperature=temperature, **_limit(max_tokens)
        )
        return Completion(
            text=_message_text(response), model=response.model, usage=_usage(response.usage)
        )

    async def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
    ) -> AsyncIterator[StreamChunk]:
        model, usage = self._model, Usage()
        try:
            response = await self._client().chat.completions.create(
                model=self._model,
                messages=_to_openai(messages),
                temperature=temperature,
                stream=True,
                stream_options={"include_usage": True},
                **_limit(max_tokens),
            )
            async with response:  # closes the connection if the reader stops early
                async for chunk in response:
                    model = chunk.model or model
                    if chunk.usage is not None:
                        usage = _usage(chunk.usage)
                    delta = chunk.choices[0].delta.content if chunk.choices else None
                    if delta:
                        yield StreamChunk(delta=delta, model=model)
        except (openai.OpenAIError, httpx2.HTTPError) as error:
            raise provider_error(error, service="language model") from error
        yield StreamChunk(delta="", model=model, usage=usage)

    async def complete_json(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: Mapping[str, Any],
        name: str,
        max_tokens: int | None = None,
    ) -> JsonCompletion:
        """Structured output with `json_schema` (strict); where the server rejects that, plain
        JSON mode with the schema written into the prompt, checked on our side."""
        if self._json_schema_supported:
            response = await self._json_schema_completion(messages, schema, name, max_tokens)
            if response is not None:
                return _json_completion(response, schema)
        response = await self._create(
            messages=_to_openai([ChatMessage("system", schema_instruction(schema)), *messages]),
            temperature=0.0,
            response_format={"type": "json_object"},
            **_limit(max_tokens),
        )
        if self._json_schema_supported:
            # JSON mode worked where json_schema was refused: skip the refused call from now on.
            logger.info("%r does not accept json_schema output; using JSON mode.", self)
            self._json_schema_supported = False
        return _json_completion(response, schema)

    async def _json_schema_completion(
        self,
        messages: Sequence[ChatMessage],
        schema: Mapping[str, Any],
        name: str,
        max_tokens: int | None,
    ) -> ChatCompletion | None:
        """The strict-schema call, or None when the server refuses the request shape."""
        response_format: Any = {
            "type": "json_schema",
            "json_schema": {
                "name": _SCHEMA_NAME_UNSAFE.sub("_", name)[:64] or "response",
                "schema": dict(schema),
                "strict": True,
            },
        }
        try:
            return await self._client().chat.completions.create(
                model=self._model,
                messages=_to_openai(messages),
                temperature=0.0,
                response_format=response_format,
                **_limit(max_tokens),
            )
        except (openai.BadRequestError, openai.UnprocessableEntityError) as error:
            logger.info("%r refused json_schema output (HTTP %s).", self, error.status_code)
            return None
        except (openai.OpenAIError, httpx2.HTTPError) as error:
            raise provider_error(error, service="language model") from error

    async def _create(self, **params: Any) -> ChatCompletion:
        try:
            response: ChatCompletion = await self._client().chat.completions.create(
                model=self._model, **params
            )
        except (openai.OpenAIError, httpx2.HTTPError) as error:
            raise provider_error(error, service="language model") from error
        return response

    def _client(self) -> AsyncOpenAI:
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            for stale in [old for old in self._clients if old.is_closed()]:
                del self._clients[stale]  # their pools died with their loops
            client = AsyncOpenAI(
                api_key=self._api_key,
                base_url=self._base_url,
                timeout=self._timeout,
                max_retries=self._max_retries,
            )
            self._clients[loop] = client
        return client


def provider_error(error: Exception, *, service: str) -> DomainError:
    """Our error for an SDK or transport error: retryable ones become `TransientError`."""
    if isinstance(error, openai.APITimeoutError | httpx2.TimeoutException):
        return TransientError(ErrorCode.PROVIDER_UNAVAILABLE, f"The {service} timed out.")
    if isinstance(error, openai.APIConnectionError | httpx2.TransportError):
        return TransientError(ErrorCode.PROVIDER_UNAVAILABLE, f"The {service} is unreachable.")
    if isinstance(error, openai.APIStatusError):
        status = error.status_code
        detail = {"status": status, "reason": str(error.message)[:300]}
        if status in (408, 409, 429) or status >= 500:
            msg = f"The {service} is unavailable right now (HTTP {status})."
            return TransientError(ErrorCode.PROVIDER_UNAVAILABLE, msg, detail=detail)
        msg = f"The {service} rejected the request (HTTP {status})."
        return DomainError(ErrorCode.PROVIDER_ERROR, msg, detail=detail)
    return DomainError(ErrorCode.PROVIDER_ERROR, f"The {service} returned an unusable response.")


def _to_openai(messages: Sequence[ChatMessage]) -> list[ChatCompletionMessageParam]:
    converted: list[Any] = [{"role": m.role, "content": m.content} for m in messages]
    return converted


def _limit(max_tokens: int | None) -> dict[str, int]:
    return {} if max_tokens is None else {"max_tokens": max_tokens}


def _usage(usage: CompletionUsage | None) -> Usage:
    if usage is None:
        return Usage()
    return Usage(prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens)


def _message_text(response: ChatCompletion) -> str:
    if not response.choices:
        raise DomainError(ErrorCode.PROVIDER_ERROR, "The language model returned no answer.")
    message = response.choices[0].message
    if message.refusal:
        raise DomainError(ErrorCode.PROVIDER_ERROR, "The language model refused to answer.")
    return message.content or ""


def _json_completion(response: ChatCompletion, schema: Mapping[str, Any]) -> JsonCompletion:
    data = parse_json_object(_message_text(response), schema=schema)
    return JsonCompletion(data=data, model=response.model, usage=_usage(response.usage))
