"""An LLM behind the OpenAI chat-completions API: OpenAI itself, or any server that speaks it
(Ollama, vLLM, OpenRouter, LM Studio...) through `base_url`.

`max_tokens` (not `max_completion_tokens`) is sent because every compatible server reads it.

Requests go through the SDK's `client.post` with a body we build, not `chat.completions.create`:
`create` walks every parameter's type annotations to transform the body, 0.5-1 ms of Python per
call (measured against a loopback server: 1.8 -> 1.3 ms a JSON call, 3.5 -> 2.9 ms to a stream's
first chunk), on the path to the first token. Our bodies are plain JSON already; `post` keeps the
SDK's retries, errors and streaming.
"""

import functools
import logging
import re
import ssl
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import httpx2
import openai
from openai import AsyncOpenAI, AsyncStream
from openai.types.chat import ChatCompletion
from openai.types.completion_usage import CompletionUsage

from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.providers.llm.base import ChatMessage, Completion, JsonCompletion, StreamChunk, Usage
from openguru.providers.llm.sdk import SdkLLM
from openguru.providers.llm.structured import parse_json_object, schema_instruction

logger = logging.getLogger(__name__)

_SCHEMA_NAME_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")
_CHAT_PATH = "/chat/completions"

try:
    import aiohttp

    _AIOHTTP_ERRORS: tuple[type[Exception], ...] = (aiohttp.ClientError,)
except ImportError:  # then the SDK's default httpx transport
    _AIOHTTP_ERRORS = ()

_TRANSPORT_ERRORS: tuple[type[Exception], ...] = (
    openai.APIConnectionError,
    httpx2.TransportError,  # raised while a stream is read, outside the SDK's wrapping
    *_AIOHTTP_ERRORS,
)
_SDK_ERRORS: tuple[type[Exception], ...] = (openai.OpenAIError, httpx2.HTTPError, *_AIOHTTP_ERRORS)


class OpenAICompatibleLLM(SdkLLM[AsyncOpenAI]):
    # Learned on first use (per instance): some compatible servers reject `json_schema` output.
    _json_schema_supported = True

    async def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
    ) -> Completion:
        response = await self._create(
            self._body(messages, temperature=temperature, max_tokens=max_tokens)
        )
        return Completion(
            text=_message_text(response),
            model=response.model or self._model,  # some compatible servers leave it empty
            usage=_usage(response.usage),
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
            client = await self._client()
            body = self._body(messages, temperature=temperature, max_tokens=max_tokens)
            body |= {"stream": True, "stream_options": {"include_usage": True}}
            # Chunks as the JSON objects they are (`AsyncStream[object]`): building the SDK's
            # typed model for each token was most of the stream's own CPU.
            response = await client.post(
                _CHAT_PATH,
                cast_to=ChatCompletion,
                body=body,
                stream=True,
                stream_cls=AsyncStream[object],
            )
            async with response:  # closes the connection if the reader stops early
                async for chunk in response:
                    if not isinstance(chunk, dict):
                        continue
                    model = chunk.get("model") or model
                    if chunk.get("usage"):
                        usage = _usage_of(chunk["usage"])
                    delta = _chunk_text(chunk)
                    if delta:
                        yield StreamChunk(delta=delta, model=model)
        except _SDK_ERRORS as error:
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
                return self._json_completion(response, schema)
        instructed = [ChatMessage("system", schema_instruction(schema)), *messages]
        response = await self._create(
            self._body(instructed, max_tokens=max_tokens)
            | {"response_format": {"type": "json_object"}}
        )
        if self._json_schema_supported:
            # JSON mode worked where json_schema was refused: skip the refused call from now on.
            logger.info("%r does not accept json_schema output; using JSON mode.", self)
            self._json_schema_supported = False
        return self._json_completion(response, schema)

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
        body = self._body(messages, max_tokens=max_tokens) | {"response_format": response_format}
        try:
            client = await self._client()
            return await client.post(_CHAT_PATH, cast_to=ChatCompletion, body=body)
        except (openai.BadRequestError, openai.UnprocessableEntityError) as error:
            logger.info("%r refused json_schema output (HTTP %s).", self, error.status_code)
            return None
        except _SDK_ERRORS as error:
            raise provider_error(error, service="language model") from error

    async def _create(self, body: dict[str, Any]) -> ChatCompletion:
        try:
            client = await self._client()
            return await client.post(_CHAT_PATH, cast_to=ChatCompletion, body=body)
        except _SDK_ERRORS as error:
            raise provider_error(error, service="language model") from error

    def _body(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None,
        temperature: float = 0.0,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self._model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "temperature": temperature,
        }
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        return body

    def _json_completion(
        self, response: ChatCompletion, schema: Mapping[str, Any]
    ) -> JsonCompletion:
        data = parse_json_object(_message_text(response), schema=schema)
        model = response.model or self._model
        return JsonCompletion(data=data, model=model, usage=_usage(response.usage))

    async def _client(self) -> AsyncOpenAI:
        return await self._clients.get()

    def _new_client(self) -> AsyncOpenAI:
        return AsyncOpenAI(
            api_key=self._api_key,
            base_url=self._base_url,
            timeout=self._timeout,
            max_retries=self._max_retries,
            http_client=_http_client(),
        )

    async def _close_client(self, client: AsyncOpenAI) -> None:
        await client.close()


def _http_client() -> httpx2.AsyncClient | None:
    """The SDK's aiohttp transport where aiohttp is installed: with hundreds of concurrent
    streams, httpx's connection pool spends more time on bookkeeping than on the streams."""
    return openai.DefaultAioHttpClient(verify=_ssl_context()) if _AIOHTTP_ERRORS else None


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    """One per process. A client is made per event loop, and a worker task or an answer's
    quality check runs under a loop of its own; building the context reads the whole CA bundle
    (tens of ms of CPU), which was most of what such a call cost."""
    return httpx2.create_ssl_context()


def provider_error(error: Exception, *, service: str) -> DomainError:
    """Our error for an SDK or transport error: retryable ones become `TransientError`."""
    if isinstance(error, openai.APITimeoutError | httpx2.TimeoutException):
        return TransientError(ErrorCode.PROVIDER_UNAVAILABLE, f"The {service} timed out.")
    if isinstance(error, _TRANSPORT_ERRORS):
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


def _chunk_text(chunk: dict[str, Any]) -> str:
    choices = chunk.get("choices") or []
    delta = (choices[0].get("delta") or {}) if choices and isinstance(choices[0], dict) else {}
    content = delta.get("content")
    return content if isinstance(content, str) else ""


def _usage_of(usage: dict[str, Any]) -> Usage:
    return Usage(
        prompt_tokens=int(usage.get("prompt_tokens") or 0),
        completion_tokens=int(usage.get("completion_tokens") or 0),
    )


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
