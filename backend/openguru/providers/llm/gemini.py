"""Google Gemini through the `google-genai` SDK (async via `client.aio`).

`base_url` goes through `HttpOptions`, so a gateway or a loopback test server can stand in for
Google's endpoint. System messages become the `system_instruction`; assistant turns are "model".
"""

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import httpx
import httpx2
from google import genai
from google.genai import errors as genai_errors
from google.genai import types

from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.providers.llm.base import ChatMessage, Completion, JsonCompletion, StreamChunk, Usage
from openguru.providers.llm.sdk import SdkLLM
from openguru.providers.llm.structured import parse_json_object

_RETRYABLE_STATUSES = (408, 429, 500, 502, 503, 504)

try:  # the SDK talks through aiohttp when it is installed, else through httpx/httpx2
    import aiohttp

    _AIOHTTP_ERRORS: tuple[type[Exception], ...] = (aiohttp.ClientError,)
except ImportError:
    _AIOHTTP_ERRORS = ()

# Whichever HTTP stack the SDK picked, a broken or slow connection surfaces as one of these.
_TRANSPORT_ERRORS = (
    *_AIOHTTP_ERRORS,
    httpx.TransportError,
    httpx2.TransportError,
    TimeoutError,
    ConnectionError,
)
_SDK_ERRORS: tuple[type[Exception], ...] = (
    genai_errors.APIError,
    genai_errors.UnknownApiResponseError,  # a body that is not the API's JSON
    *_TRANSPORT_ERRORS,
)


class GeminiLLM(SdkLLM[genai.Client]):
    async def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
    ) -> Completion:
        config = _config(messages, temperature=temperature, max_output_tokens=max_tokens)
        response = await self._generate(messages, config)
        return Completion(
            text=_response_text(response),
            model=response.model_version or self._model,
            usage=_usage(response.usage_metadata),
        )

    async def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
    ) -> AsyncIterator[StreamChunk]:
        config = _config(messages, temperature=temperature, max_output_tokens=max_tokens)
        model, usage = self._model, Usage()
        try:
            models = await self._models()
            responses = await models.generate_content_stream(
                model=self._model, contents=_contents(messages), config=config
            )
            async for response in responses:
                model = response.model_version or model
                if response.usage_metadata is not None:
                    usage = _usage(response.usage_metadata)  # cumulative: the last one counts
                delta = _chunk_text(response)
                if delta:
                    yield StreamChunk(delta=delta, model=model)
        except _SDK_ERRORS as error:
            raise _provider_error(error) from error
        yield StreamChunk(delta="", model=model, usage=usage)

    async def complete_json(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: Mapping[str, Any],
        name: str,
        max_tokens: int | None = None,
    ) -> JsonCompletion:
        """Gemini enforces the schema itself (`response_json_schema`); we still check the shape."""
        config = _config(
            messages,
            temperature=0.0,
            max_output_tokens=max_tokens,
            response_mime_type="application/json",
            response_json_schema=dict(schema),
        )
        response = await self._generate(messages, config)
        return JsonCompletion(
            data=parse_json_object(_response_text(response), schema=schema),
            model=response.model_version or self._model,
            usage=_usage(response.usage_metadata),
        )

    async def _generate(
        self, messages: Sequence[ChatMessage], config: types.GenerateContentConfig
    ) -> types.GenerateContentResponse:
        try:
            models = await self._models()
            return await models.generate_content(
                model=self._model, contents=_contents(messages), config=config
            )
        except _SDK_ERRORS as error:
            raise _provider_error(error) from error

    async def _models(self) -> Any:
        """`client.aio.models` of this event loop's client."""
        return (await self._clients.get()).aio.models

    def _new_client(self) -> genai.Client:
        return genai.Client(
            api_key=self._api_key,
            vertexai=False,
            http_options=types.HttpOptions(
                base_url=self._base_url,
                timeout=int(self._timeout * 1000),  # the SDK counts milliseconds
                # Explicit retry options also stop the SDK's own sleep-and-retry on connection
                # errors, which would wait up to ten seconds.
                retry_options=types.HttpRetryOptions(
                    attempts=self._max_retries + 1,
                    initial_delay=0.5,
                    max_delay=4.0,
                    http_status_codes=list(_RETRYABLE_STATUSES),
                ),
            ),
        )

    async def _close_client(self, client: genai.Client) -> None:
        await client.aio.aclose()


def _provider_error(error: Exception) -> DomainError:
    if isinstance(error, genai_errors.APIError):
        status = int(error.code or 0)
        detail = {"status": status, "reason": str(error.message or error.status or "")[:300]}
        if status in _RETRYABLE_STATUSES:
            msg = f"The language model is unavailable right now (HTTP {status})."
            return TransientError(ErrorCode.PROVIDER_UNAVAILABLE, msg, detail=detail)
        msg = f"The language model rejected the request (HTTP {status})."
        return DomainError(ErrorCode.PROVIDER_ERROR, msg, detail=detail)
    if isinstance(error, TimeoutError | httpx.TimeoutException | httpx2.TimeoutException):
        return TransientError(ErrorCode.PROVIDER_UNAVAILABLE, "The language model timed out.")
    if isinstance(error, _TRANSPORT_ERRORS):
        msg = "The language model is unreachable."
        return TransientError(ErrorCode.PROVIDER_UNAVAILABLE, msg)
    msg = "The language model returned an unusable response."
    return DomainError(ErrorCode.PROVIDER_ERROR, msg)


def _config(messages: Sequence[ChatMessage], **options: Any) -> types.GenerateContentConfig:
    system = "\n\n".join(m.content for m in messages if m.role == "system")
    return types.GenerateContentConfig(system_instruction=system or None, **options)


def _contents(messages: Sequence[ChatMessage]) -> list[types.Content]:
    return [
        types.Content(
            role="model" if m.role == "assistant" else "user", parts=[types.Part(text=m.content)]
        )
        for m in messages
        if m.role != "system"
    ]


def _chunk_text(response: types.GenerateContentResponse) -> str:
    """The text parts of one response, without the SDK's warning about non-text parts."""
    if not response.candidates or response.candidates[0].content is None:
        return ""
    parts = response.candidates[0].content.parts or []
    return "".join(part.text for part in parts if part.text and not part.thought)


def _response_text(response: types.GenerateContentResponse) -> str:
    if not response.candidates:
        feedback = response.prompt_feedback
        reason = feedback.block_reason if feedback is not None else None
        msg = "The language model returned no answer" + (f" ({reason})." if reason else ".")
        raise DomainError(ErrorCode.PROVIDER_ERROR, msg)
    return _chunk_text(response)


def _usage(metadata: types.GenerateContentResponseUsageMetadata | None) -> Usage:
    if metadata is None:
        return Usage()
    return Usage(
        prompt_tokens=metadata.prompt_token_count or 0,
        completion_tokens=metadata.candidates_token_count or 0,
    )
