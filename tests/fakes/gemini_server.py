"""A loopback server that speaks the Gemini REST API as the `google-genai` SDK uses it.

POST /{version}/models/{model}:generateContent          -> one GenerateContentResponse
POST /{version}/models/{model}:streamGenerateContent?alt=sse -> SSE `data: {...}` chunks

The SDK sends `contents` (roles "user"/"model", `parts[].text`), `systemInstruction` and
`generationConfig` (temperature, maxOutputTokens, responseMimeType, responseJsonSchema or the
OpenAPI-flavoured responseSchema) and authenticates with the `x-goog-api-key` header. Every
response carries `usageMetadata`; errors are `{"error": {"code", "message", "status"}}`.

Standalone: `python -m tests.fakes.gemini_server --port 8098 --call-ms 300 --token-ms 20`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from tests.fakes.fake_content import (
    count_words,
    example_for_schema,
    fake_answer,
    first_sentence,
    split_tokens,
)
from tests.fakes.loopback import (
    FakeHandler,
    HttpFailure,
    LoopbackApp,
    Route,
    app_argument_parser,
    app_options,
    make_server_fixture,
)

_STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}


class FakeGeminiServer(LoopbackApp):
    error_statuses: ClassVar[Mapping[int, str]] = {
        400: "Request contains an invalid argument.",
        403: "API key not valid. Please pass a valid API key.",
        429: "Resource has been exhausted (e.g. check quota).",
        500: "An internal error has occurred.",
        503: "The model is overloaded. Please try again later.",
    }

    def __init__(self, *, api_key: str | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.api_key = api_key

    @property
    def base_url(self) -> str:
        """What the SDK's `HttpOptions(base_url=...)` takes: it appends `/v1beta/models/...`."""
        return self.origin

    def routes(self) -> list[tuple[str, re.Pattern[str], Route]]:
        return [
            (
                "POST",
                re.compile(r"/(v1beta|v1alpha|v1)/models/([^/:]+):(generateContent)"),
                self._generate,
            ),
            (
                "POST",
                re.compile(r"/(v1beta|v1alpha|v1)/models/([^/:]+):(streamGenerateContent)"),
                self._generate,
            ),
        ]

    def error_body(self, status: int, message: str) -> object:
        return {
            "error": {
                "code": status,
                "message": message,
                "status": _STATUS_NAMES.get(status, "UNKNOWN"),
            }
        }

    def _generate(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        if self.api_key and handler.headers.get("x-goog-api-key") != self.api_key:
            raise HttpFailure(403, self.error_statuses[403])
        contents = body.get("contents")
        if not isinstance(contents, list) or not contents:
            raise HttpFailure(400, "* GenerateContentRequest.contents: contents is not specified")
        model = match.group(2)
        text = self._answer_text(body, contents)
        prompt_tokens = sum(count_words(t) for t in _texts(contents, body))
        if match.group(3) == "streamGenerateContent":
            if "alt=sse" not in handler.path:
                raise HttpFailure(400, "This fake only streams with ?alt=sse, as the SDK does.")
            handler.send_sse(self._events(model, text, prompt_tokens), self.token_ms / 1000)
            return
        self._sleep(self.token_ms * len(split_tokens(text)))
        tokens = len(split_tokens(text))
        handler.send_json(200, _response(model, text, "STOP", prompt_tokens, tokens))

    def _answer_text(self, body: dict[str, Any], contents: list[dict[str, Any]]) -> str:
        scripted = self.next_scripted()
        if scripted is not None:
            return scripted
        question = next(
            (" ".join(_part_texts(c)) for c in reversed(contents) if c.get("role") != "model"),
            "",
        )
        config = body.get("generationConfig") or {}
        if config.get("responseMimeType") == "application/json":
            schema = config.get("responseJsonSchema") or config.get("responseSchema")
            if not schema:
                return json.dumps({"answer": first_sentence(question)})
            return json.dumps(example_for_schema(schema, first_sentence(question), schema))
        return fake_answer("\n".join(_texts(contents, body)), question)

    @staticmethod
    def _events(model: str, text: str, prompt_tokens: int) -> Iterator[str]:
        tokens = split_tokens(text)
        for index, token in enumerate(tokens, start=1):
            finish = "STOP" if index == len(tokens) else None
            payload = _response(model, token, finish, prompt_tokens, index)
            yield f"data: {json.dumps(payload)}\r\n\r\n"


def _part_texts(content: Mapping[str, Any]) -> list[str]:
    return [str(part.get("text", "")) for part in content.get("parts") or []]


def _texts(contents: list[dict[str, Any]], body: Mapping[str, Any]) -> list[str]:
    system = body.get("systemInstruction") or {}
    texts = _part_texts(system)
    for content in contents:
        texts.extend(_part_texts(content))
    return texts


def _response(
    model: str, text: str, finish: str | None, prompt_tokens: int, output_tokens: int
) -> dict[str, Any]:
    candidate: dict[str, Any] = {
        "content": {"parts": [{"text": text}], "role": "model"},
        "index": 0,
    }
    if finish:
        candidate["finishReason"] = finish
    return {
        "candidates": [candidate],
        "usageMetadata": {
            "promptTokenCount": prompt_tokens,
            "candidatesTokenCount": output_tokens,
            "totalTokenCount": prompt_tokens + output_tokens,
        },
        "modelVersion": model,
        "responseId": "fake-response",
    }


def make_gemini_server_fixture(scope: str = "function", **options: Any) -> Any:
    """A pytest fixture yielding a started `FakeGeminiServer` (stopped after its scope)."""
    return make_server_fixture(lambda: FakeGeminiServer(**options), scope)


def main(argv: list[str] | None = None) -> None:
    args = app_argument_parser("A loopback Gemini API server.").parse_args(argv)
    server = FakeGeminiServer(**app_options(args)).start()
    print(f"fake Gemini server listening on {server.base_url}", flush=True)
    server.run_until_signalled()


if __name__ == "__main__":
    main()
