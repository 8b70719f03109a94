"""A loopback server that speaks the OpenAI HTTP API (chat completions, embeddings, models).

It fakes the far end of the wire: the real `openai` SDK talks to it over real HTTP. Answers are
deterministic functions of the prompt, so a streamed answer equals the non-streamed one.

Knobs for tests and benchmarks:
- `call_ms` / `token_ms`: latency before the first byte and between streamed tokens.
- `fail_next(n, status)` / `fail_all(status)`: answer the next n (or every) call with an error.
- `script(*texts)`: the next chat answers, in order.
- `reject_json_schema`: answer 400 to `response_format: json_schema`, like servers without it.
- `hold_streams(after_events)`: streams pause there until the returned Event is set, which
  proves without any clock that a client hands on tokens as they arrive.
- `cut_streams_after = n`: streams drop the connection after n events (a failure mid-answer).
- `requests` / `call_count`: the request log (path, JSON body, headers) and the call count.

Standalone: `python -m tests.fakes.openai_server --port 8099 --call-ms 300 --token-ms 20`.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import math
import re
import signal
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, Self

# ---------------------------------------------------------------------------------------------
# Deterministic content shared by the fake protocol servers
# ---------------------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_CITED_PASSAGE = re.compile(r"\[(\d+)\][^\S\n]*([^\n]+)")


def first_sentence(text: str, limit: int = 200) -> str:
    sentence = _SENTENCE_END.split(text.strip(), maxsplit=1)[0]
    return sentence[:limit].strip()


def fake_answer(prompt_text: str, question: str) -> str:
    """What the fake model says: cites the first `[n]` passage of the prompt when there is one."""
    match = _CITED_PASSAGE.search(prompt_text)
    if match:
        return f"{first_sentence(match.group(2))} [{match.group(1)}]"
    return f"You asked: {first_sentence(question) or 'nothing'}"


def split_tokens(text: str) -> list[str]:
    """Word-sized pieces whose concatenation is exactly `text` (what a stream sends)."""
    return re.findall(r"\s*\S+\s*", text) or [text]


def count_words(text: str) -> int:
    return len(text.split())


def example_for_schema(schema: Mapping[str, Any], hint: str, root: Mapping[str, Any]) -> Any:
    """A value that satisfies a JSON Schema (OpenAI or Gemini flavour) built from the prompt."""
    if "$ref" in schema:
        return example_for_schema(_resolve_ref(root, schema["$ref"]), hint, root)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if schema.get(key):
            return example_for_schema(schema[key][0], hint, root)
    kind = _schema_type(schema)
    if kind == "object":
        properties = schema.get("properties") or {}
        return {
            name: example_for_schema(sub, f"{name}: {hint}", root)
            for name, sub in properties.items()
        }
    if kind == "array":
        count = max(int(schema.get("minItems", 1)), 1)
        return [example_for_schema(schema.get("items") or {}, hint, root) for _ in range(count)]
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return float(schema.get("minimum", 0.5))
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    return hint.ljust(int(schema.get("minLength", 0)), ".")[: schema.get("maxLength", 10_000)]


def _schema_type(schema: Mapping[str, Any]) -> str:
    kind = schema.get("type", "string")
    if isinstance(kind, list):  # ["string", "null"]: the first real type
        kind = next((k for k in kind if str(k).lower() != "null"), "null")
    if kind == "string" and "properties" in schema:
        kind = "object"
    return str(kind).lower()  # Gemini's OpenAPI flavour says "OBJECT", "STRING"


def _resolve_ref(root: Mapping[str, Any], ref: str) -> Mapping[str, Any]:
    node: Any = root
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def schema_in_text(text: str) -> Mapping[str, Any] | None:
    """A JSON Schema written into a prompt (how a client asks for JSON without json_schema)."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        found = json.loads(text[start : end + 1])
    except ValueError:
        return None
    return found if isinstance(found, dict) and "properties" in found else None


_WORD = re.compile(r"\w+")
_STOPWORDS = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from",
        "how", "i", "in", "is", "it", "of", "on", "or", "the", "to", "what", "with",
    }
)  # fmt: skip


def deterministic_vector(text: str, dimension: int) -> list[float]:
    """A unit vector from hashes of the text's words: equal texts embed equally, and texts that
    share words are close (so retrieval over these vectors behaves like retrieval)."""
    words = [w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS] or [text]
    vector = [0.0] * dimension
    for word in words:
        digest = hashlib.sha256(word.encode()).digest()
        # Two buckets per word soften collisions in small dimensions.
        for offset in (0, 8):
            bucket = int.from_bytes(digest[offset : offset + 4], "big") % dimension
            vector[bucket] += 1.0 if digest[offset + 4] & 1 else -1.0
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector]


# ---------------------------------------------------------------------------------------------
# A threaded loopback HTTP server with latency, failure injection and a request log
# ---------------------------------------------------------------------------------------------


def free_port() -> int:
    """A loopback port nothing listens on right now (for servers, or for 'unreachable' tests)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    body: dict[str, Any]
    headers: dict[str, str]


class HttpFailure(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024  # a benchmark opens hundreds of streams at once
    app: LoopbackApp


class FakeHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, and chunked streams
    disable_nagle_algorithm = True  # tokens leave as soon as they are written
    server: _Server

    def do_GET(self) -> None:
        self.server.app.dispatch(self)

    def do_POST(self) -> None:
        self.server.app.dispatch(self)

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def read_json(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return {}
        try:
            body = json.loads(raw)
        except ValueError as error:
            raise HttpFailure(400, "The request body is not valid JSON.") from error
        return body if isinstance(body, dict) else {"_": body}

    def send_json(
        self, status: int, payload: object, headers: Mapping[str, str] | None = None
    ) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def send_sse(self, events: Iterator[str], token_delay: float) -> None:
        """Chunked `text/event-stream`, one write per event, so a client sees each token now."""
        app = self.server.app
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for index, event in enumerate(events):
                if index and token_delay:
                    time.sleep(token_delay)
                if app.cut_streams_after is not None and index >= app.cut_streams_after:
                    # Drop the line mid-answer: no terminating chunk, the socket just closes.
                    self.close_connection = True
                    return
                data = event.encode()
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                app.wait_at_gate(index + 1)
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            # The client stopped reading (it may: a reader can abandon a stream).
            self.close_connection = True


Route = Callable[[FakeHandler, re.Match[str], dict[str, Any]], None]


class LoopbackApp:
    """Routing, latency, failure injection and the request log; subclasses add the protocol."""

    error_statuses: ClassVar[Mapping[int, str]] = {}

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        call_ms: float = 0.0,
        token_ms: float = 0.0,
        log_size: int = 10_000,
    ) -> None:
        self.host = host
        self.port = port
        self.call_ms = call_ms
        self.token_ms = token_ms
        self.requests: deque[RecordedRequest] = deque(maxlen=log_size)
        self.call_count = 0
        self._lock = threading.Lock()
        self._failures: deque[int] = deque()
        self._fail_all: int | None = None
        self._scripted: deque[str] = deque()
        self._gate: tuple[int, threading.Event] | None = None
        self.cut_streams_after: int | None = None
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle ---------------------------------------------------------------------------

    def start(self) -> Self:
        self._httpd = _Server((self.host, self.port), FakeHandler)
        self._httpd.app = self
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, name=type(self).__name__, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def run_until_signalled(self) -> None:
        """Serve in the foreground until SIGINT/SIGTERM (the standalone mode); then stop."""
        stopped = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stopped.set())
        try:
            stopped.wait()
        finally:
            self.stop()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    # --- test knobs --------------------------------------------------------------------------

    def fail_next(self, count: int = 1, status: int = 503) -> None:
        with self._lock:
            self._failures.extend([status] * count)

    def fail_all(self, status: int | None = 503) -> None:
        """Every call fails with `status` until `fail_all(None)` (a provider that is down)."""
        with self._lock:
            self._fail_all = status

    def script(self, *texts: str) -> None:
        with self._lock:
            self._scripted.extend(texts)

    def hold_streams(self, after_events: int) -> threading.Event:
        """Streams pause after `after_events` SSE events until the returned event is set: a
        client that yields the first token while the server holds the rest streams for real."""
        gate = threading.Event()
        with self._lock:
            self._gate = (after_events, gate)
        return gate

    def wait_at_gate(self, events_sent: int) -> None:
        gate = self._gate
        if gate is not None and events_sent == gate[0]:
            gate[1].wait(timeout=30)  # never hang a test run forever

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.call_count = 0
            self._failures.clear()
            self._fail_all = None
            self._scripted.clear()
            if self._gate is not None:
                self._gate[1].set()
            self._gate = None
            self.cut_streams_after = None

    def prompts(self) -> list[dict[str, Any]]:
        return [request.body for request in self.requests if request.method == "POST"]

    # --- request handling --------------------------------------------------------------------

    def routes(self) -> list[tuple[str, re.Pattern[str], Route]]:
        raise NotImplementedError

    def error_body(self, status: int, message: str) -> object:
        raise NotImplementedError

    def error_headers(self, status: int) -> Mapping[str, str]:
        return {}

    def dispatch(self, handler: FakeHandler) -> None:
        path = handler.path.split("?", 1)[0]
        try:
            body = handler.read_json() if handler.command == "POST" else {}
            self._record(handler, path, body)
            self._sleep(self.call_ms)
            self._raise_injected_failure()
            for method, pattern, route in self.routes():
                match = pattern.fullmatch(path)
                if match and method == handler.command:
                    route(handler, match, body)
                    return
            raise HttpFailure(404, f"No route for {handler.command} {path}.")
        except HttpFailure as failure:
            handler.send_json(
                failure.status,
                self.error_body(failure.status, failure.message),
                self.error_headers(failure.status),
            )

    def next_scripted(self) -> str | None:
        with self._lock:
            return self._scripted.popleft() if self._scripted else None

    def _record(self, handler: FakeHandler, path: str, body: dict[str, Any]) -> None:
        headers = {name.lower(): value for name, value in handler.headers.items()}
        with self._lock:
            self.call_count += 1
            self.requests.append(RecordedRequest(handler.command, path, body, headers))

    def _raise_injected_failure(self) -> None:
        with self._lock:
            status = self._failures.popleft() if self._failures else self._fail_all
        if status is not None:
            raise HttpFailure(status, self.error_statuses.get(status, f"Injected HTTP {status}."))

    @staticmethod
    def _sleep(milliseconds: float) -> None:
        if milliseconds > 0:
            time.sleep(milliseconds / 1000)


# ---------------------------------------------------------------------------------------------
# The OpenAI protocol
# ---------------------------------------------------------------------------------------------


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
        **options: Any,
    ) -> None:
        super().__init__(**options)
        self.dimension = dimension
        self.models = models
        self.api_key = api_key
        self.reject_json_schema = reject_json_schema

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
        prompt_tokens = sum(count_words(str(m.get("content", ""))) for m in messages)
        if body.get("stream"):
            options = body.get("stream_options") or {}
            events = self._chat_events(model, text, prompt_tokens, options.get("include_usage"))
            handler.send_sse(events, self.token_ms / 1000)
            return
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
            schema = response_format.get("json_schema", {}).get("schema") or {}
            return json.dumps(example_for_schema(schema, first_sentence(question), schema))
        if response_format.get("type") == "json_object":
            # Without json_schema a client writes its schema into the prompt; a model reads it.
            schema = next(filter(None, map(schema_in_text, contents)), None)
            if schema is None:
                return json.dumps({"answer": fake_answer("\n".join(contents), question)})
            return json.dumps(example_for_schema(schema, first_sentence(question), schema))
        return fake_answer("\n".join(contents), question)

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


def make_openai_server_fixture(scope: str = "function", **options: Any) -> Any:
    """A pytest fixture yielding a started `FakeOpenAIServer` (stopped after its scope)."""
    import pytest

    @pytest.fixture(scope=scope)  # type: ignore[call-overload]
    def _fake_openai_server() -> Iterator[FakeOpenAIServer]:
        server = FakeOpenAIServer(**options)
        server.start()
        try:
            yield server
        finally:
            server.stop()

    return _fake_openai_server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="A loopback OpenAI-compatible server.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--call-ms", type=float, default=0.0)
    parser.add_argument("--token-ms", type=float, default=0.0)
    parser.add_argument("--dimension", type=int, default=64)
    args = parser.parse_args(argv)
    server = FakeOpenAIServer(
        host=args.host,
        port=args.port,
        call_ms=args.call_ms,
        token_ms=args.token_ms,
        dimension=args.dimension,
        log_size=100,
    )
    server.start()
    print(f"fake OpenAI server listening on {server.base_url}", flush=True)
    server.run_until_signalled()


if __name__ == "__main__":
    main()
