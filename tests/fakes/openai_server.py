"""A loopback server that speaks the OpenAI HTTP API (chat completions, embeddings, models).

It fakes the far end of the wire: the real `openai` SDK talks to it over real HTTP. Answers are
deterministic functions of the prompt (`fake_content.py`), so a streamed answer equals the
non-streamed one.

Knobs for tests and benchmarks:
- `call_ms` / `token_ms`: latency before the first byte and between streamed tokens. A model
  also spends `token_ms` before a stream's first token and on each token of a non-streamed
  answer; `fixed_call=True` drops both, so every call takes `call_ms` to its first answer token
  whatever it says (a "fixed latency per call", as the answer engine's speed targets put it).
- `fail_next(n, status)` / `fail_all(status)`: answer the next n (or every) call with an error.
- `script(*texts)`: the next chat answers, in order.
- `reject_json_schema`: answer 400 to `response_format: json_schema`, like servers without it.
- `hold_streams(after_events)`: streams pause there until the returned Event is set, which
  proves without any clock that a client hands on tokens as they arrive.
- `hold_next_embedding()`: the next embeddings request waits until the returned Event is set,
  which proves without any clock what a client sends while it waits for an embedding.
- `cut_streams_after = n`: streams drop the connection after n events (a failure mid-answer).
- `fail_model(model, ModelFailure(...))`: calls naming that model fail (an HTTP error, a hang
  past the client's timeout, a stream cut after n events) while other models answer: a primary
  model that is down beside its fallback on the same server.
- `add_unsupported_every = n`: every n-th answer (not JSON) ends with `UNSUPPORTED_SENTENCE`,
  which no context says; the grounding check's call is answered by `grounding_judge`, claim by
  claim from the words the contexts hold, so that sentence is labelled "unsupported".
- `requests` / `call_count`: the request log (path, JSON body, headers) and the call count.

Standalone: `python -m tests.fakes.openai_server --port 8099 --call-ms 300 --token-ms 20`.
"""

from __future__ import annotations

import base64
import json
import re
import struct
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any, ClassVar

from tests.fakes.fake_content import (
    count_words,
    deterministic_vector,
    example_for_schema,
    fake_answer,
    first_sentence,
    schema_in_text,
    split_tokens,
)
from tests.fakes.grounding_judge import (
    UNSUPPORTED_SENTENCE,
    grounding_verdicts,
    is_grounding_call,
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

# The loopback plumbing lives in tests.fakes.loopback; these names stay importable from here.
from tests.fakes.loopback import RecordedRequest as RecordedRequest
from tests.fakes.loopback import free_port as free_port
from tests.fakes.question_writer import is_question_call, questions_for

# ---------------------------------------------------------------------------------------------
# The OpenAI protocol
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelFailure:
    """How the calls naming one model fail: first `hang_seconds` of silence, then an HTTP error
    `status`, or (streams) the line dropped after `cut_after_events` events."""

    status: int | None = None
    hang_seconds: float = 0.0
    cut_after_events: int | None = None


class FakeOpenAIServer(LoopbackApp):
    error_statuses: ClassVar[Mapping[int, str]] = {
        400: "Invalid request.",
        401: "Incorrect API key provided.",
        429: "Rate limit reached. Please try again later.",
        500: "The server had an error while processing your request.",
        503: "The engine is currently overloaded, please try again later.",
    }

    # What the real models return when the request does not ask for `dimensions`.
    native_dimensions: ClassVar[Mapping[str, int]] = {
        "text-embedding-3-small": 1536,
        "text-embedding-3-large": 3072,
        "text-embedding-ada-002": 1536,
    }

    def __init__(
        self,
        *,
        dimension: int = 64,
        models: tuple[str, ...] = ("fake-gpt",),
        api_key: str | None = None,
        reject_json_schema: bool = False,
        fixed_call: bool = False,
        add_unsupported_every: int = 0,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        self.fixed_call = fixed_call
        self.add_unsupported_every = add_unsupported_every
        self._answers = 0  # answer (not JSON) calls, for `add_unsupported_every`
        self.dimension = dimension
        self.models = models
        self.api_key = api_key
        self.reject_json_schema = reject_json_schema
        self._embedding_hold: threading.Event | None = None
        self._model_failures: dict[str, ModelFailure] = {}

    def reset(self) -> None:
        super().reset()
        with self._lock:
            self._model_failures.clear()
            self._answers = 0

    def fail_model(self, model: str, failure: ModelFailure | None) -> None:
        """Calls naming `model` fail as `failure` says (None: they answer again)."""
        with self._lock:
            if failure is None:
                self._model_failures.pop(model, None)
            else:
                self._model_failures[model] = failure

    def hold_next_embedding(self) -> threading.Event:
        hold = threading.Event()
        self._embedding_hold = hold
        return hold

    @property
    def base_url(self) -> str:
        return f"{self.origin}/v1"

    def routes(self) -> list[tuple[str, re.Pattern[str], Route]]:
        return [
            ("POST", re.compile(r"/v1/chat/completions"), self._chat),
            ("POST", re.compile(r"/v1/embeddings"), self._embeddings),
            ("GET", re.compile(r"/v1/models"), self._models),
        ]

    def error_body(self, status: int, message: str) -> object:
        kind = "invalid_request_error" if status < 500 else "server_error"
        return {"error": {"message": message, "type": kind, "param": None, "code": None}}

    def error_headers(self, status: int) -> Mapping[str, str]:
        # Real servers tell clients how long to back off; a short wait keeps tests quick.
        return {"retry-after-ms": "20"} if status in (429, 503) else {}

    # --- endpoints ---------------------------------------------------------------------------

    def _check_key(self, handler: FakeHandler) -> None:
        if self.api_key and handler.headers.get("Authorization") != f"Bearer {self.api_key}":
            raise HttpFailure(401, self.error_statuses[401])

    def _models(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        self._check_key(handler)
        data = [{"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in self.models]
        handler.send_json(200, {"object": "list", "data": data})

    def _chat(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        self._check_key(handler)
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise HttpFailure(400, "'messages' must be a non-empty array.")
        text = self._chat_text(body, messages)
        model = str(body.get("model") or self.models[0])
        failure = self._model_failures.get(model)
        if failure is not None:
            self._sleep(failure.hang_seconds * 1000)
            if failure.status is not None:
                message = self.error_statuses.get(failure.status, f"Injected {failure.status}.")
                raise HttpFailure(failure.status, message)
        prompt_tokens = sum(count_words(str(m.get("content", ""))) for m in messages)
        if body.get("stream"):
            options = body.get("stream_options") or {}
            include_usage = bool(options.get("include_usage"))
            events = self._chat_events(model, text, prompt_tokens, include_usage)
            if failure is not None and failure.cut_after_events is not None:
                _send_cut_stream(handler, islice(events, failure.cut_after_events))
                return
            # Event 0 is the role chunk; with a fixed call the first token comes with it.
            handler.send_sse(events, self.token_ms / 1000, together=2 if self.fixed_call else 1)
            return
        if not self.fixed_call:
            self._sleep(self.token_ms * len(split_tokens(text)))
        handler.send_json(200, self._chat_completion(model, text, prompt_tokens))

    def _chat_text(self, body: dict[str, Any], messages: list[dict[str, Any]]) -> str:
        scripted = self.next_scripted()
        if scripted is not None:
            return scripted
        contents = [str(m.get("content") or "") for m in messages]
        question = next(
            (str(m.get("content")) for m in reversed(messages) if m.get("role") == "user"),
            "",
        )
        response_format = body.get("response_format") or {}
        if response_format.get("type") == "json_schema":
            if self.reject_json_schema:
                raise HttpFailure(400, "response_format.type 'json_schema' is not supported.")
            if is_grounding_call(body):
                return json.dumps(grounding_verdicts(question))
            if is_question_call(body):
                return json.dumps(questions_for(question))
            schema = response_format.get("json_schema", {}).get("schema") or {}
            return json.dumps(example_for_schema(schema, first_sentence(question), schema))
        if response_format.get("type") == "json_object":
            # Without json_schema a client writes its schema into the prompt; a model reads it.
            schema = next(filter(None, map(schema_in_text, contents)), None)
            if schema is None:
                return json.dumps({"answer": fake_answer("\n".join(contents), question)})
            return json.dumps(example_for_schema(schema, first_sentence(question), schema))
        return self._with_unsupported(fake_answer("\n".join(contents), question))

    def _with_unsupported(self, answer: str) -> str:
        with self._lock:
            self._answers += 1
            add = self.add_unsupported_every and self._answers % self.add_unsupported_every == 0
        return f"{answer} {UNSUPPORTED_SENTENCE}" if add else answer

    @staticmethod
    def _chat_completion(model: str, text: str, prompt_tokens: int) -> dict[str, Any]:
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "system_fingerprint": None,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text, "refusal": None},
                    "logprobs": None,
                    "finish_reason": "stop",
                }
            ],
            "usage": _usage(prompt_tokens, len(split_tokens(text))),
        }

    @staticmethod
    def _chat_events(
        model: str, text: str, prompt_tokens: int, include_usage: bool
    ) -> Iterator[str]:
        """The exact chunk sequence of the OpenAI API: role, content deltas, finish, usage."""
        created = int(time.time())

        def event(choices: list[dict[str, Any]], usage: object = None) -> str:
            payload: dict[str, Any] = {
                "id": "chatcmpl-fake",
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "system_fingerprint": None,
                "choices": choices,
            }
            if include_usage:  # then every chunk carries `usage`, null but on the last
                payload["usage"] = usage
            return f"data: {json.dumps(payload)}\n\n"

        def choice(delta: dict[str, Any], finish: str | None = None) -> list[dict[str, Any]]:
            return [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]

        tokens = split_tokens(text)
        yield event(choice({"role": "assistant", "content": "", "refusal": None}))
        for token in tokens:
            yield event(choice({"content": token}))
        yield event(choice({}, "stop"))
        if include_usage:
            yield event([], _usage(prompt_tokens, len(tokens)))
        yield "data: [DONE]\n\n"

    def _embeddings(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        self._check_key(handler)
        with self._lock:
            hold, self._embedding_hold = self._embedding_hold, None
        if hold is not None:
            hold.wait(timeout=30)  # never hang a test run forever
        texts = body.get("input")
        if isinstance(texts, str):
            texts = [texts]
        if not isinstance(texts, list) or not texts:
            raise HttpFailure(400, "'input' must be a string or a non-empty array.")
        if any(not isinstance(t, str) or not t for t in texts):
            raise HttpFailure(400, "'$.input' is invalid: empty strings are not allowed.")
        model = str(body.get("model") or "fake-embedding")
        if body.get("dimensions") and model.startswith("text-embedding-3"):
            dimension = int(body["dimensions"])
        elif body.get("dimensions"):
            raise HttpFailure(400, f"The model {model} does not support 'dimensions'.")
        else:
            dimension = self.native_dimensions.get(model, self.dimension)
        as_base64 = body.get("encoding_format") == "base64"
        data = [
            {"object": "embedding", "index": i, "embedding": _encode(vector, as_base64)}
            for i, vector in enumerate(deterministic_vector(t, dimension) for t in texts)
        ]
        tokens = sum(count_words(t) for t in texts)
        payload = {
            "object": "list",
            "data": data,
            "model": model,
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }
        handler.send_json(200, payload)


def _usage(prompt_tokens: int, completion_tokens: int) -> dict[str, int]:
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


def _encode(vector: list[float], as_base64: bool) -> list[float] | str:
    if not as_base64:
        return vector
    return base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode()


def _send_cut_stream(handler: FakeHandler, events: Iterator[str]) -> None:
    """A chunked event stream whose line drops after `events`: no terminating chunk."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    for event in events:
        data = event.encode()
        handler.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
    handler.wfile.flush()
    handler.close_connection = True


def make_openai_server_fixture(scope: str = "function", **options: Any) -> Any:
    """A pytest fixture yielding a started `FakeOpenAIServer` (stopped after its scope)."""
    return make_server_fixture(lambda: FakeOpenAIServer(**options), scope)


def main(argv: list[str] | None = None) -> None:
    parser = app_argument_parser("A loopback OpenAI-compatible server.")
    parser.add_argument("--dimension", type=int, default=64)
    parser.add_argument(
        "--fixed-call",
        action="store_true",
        help="every call takes --call-ms to its first answer token, whatever its length",
    )
    args = parser.parse_args(argv)
    server = FakeOpenAIServer(
        dimension=args.dimension, fixed_call=args.fixed_call, **app_options(args)
    ).start()
    print(f"fake OpenAI server listening on {server.base_url}", flush=True)
    server.run_until_signalled()


if __name__ == "__main__":
    main()
