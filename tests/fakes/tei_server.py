"""A loopback server speaking HuggingFace text-embeddings-inference (TEI): the far end of the wire
for TEIEmbedder and TEIReranker tests. Standard library only; it shares no code with the clients.

  POST /embed   {"inputs": [...], "truncate": bool} -> [[float, ...], ...]
  POST /rerank  {"query": q, "texts": [...], "raw_scores": bool} -> [{"index", "score"}, ...]
  GET  /info    model facts, among them max_input_length and max_client_batch_size
  GET  /health  200

Embeddings are hashed bags of words (texts sharing words are close); rerank scores are the share
of the query's words found in a text, so both are deterministic. Usage:

    with FakeTEIServer() as server:          # or the `tei_server` fixture below
        server.fail_next(2, status=503)
        ... server.url ... server.requests ...

Standalone: python -m tests.fakes.tei_server --port 8080
"""

import argparse
import contextlib
import hashlib
import json
import math
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from tests.fakes.loopback import LoopbackServer

_WORD = re.compile(r"\w+")
_STOPWORDS = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from",
        "how", "i", "in", "is", "it", "of", "on", "or", "the", "to", "what", "with",
    }
)  # fmt: skip


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or None


@dataclass
class _Failure:
    status: int
    body: Any


@dataclass
class _State:
    dimension: int
    max_input_length: int
    max_client_batch_size: int
    api_key: str | None
    info_enabled: bool
    raw_logits: bool
    delay_seconds: float = 0.0
    failures: list[_Failure] = field(default_factory=list)
    requests: list[RecordedRequest] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class FakeTEIServer(LoopbackServer):
    def __init__(
        self,
        *,
        dimension: int = 384,
        max_input_length: int = 512,
        max_client_batch_size: int = 32,
        api_key: str | None = None,
        info_enabled: bool = True,
        raw_logits: bool = False,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        """`raw_logits`: answer /rerank with unbounded logits whatever raw_scores asks, like
        some TEI-compatible proxies. `info_enabled=False`: /info answers 404."""
        self.state = _State(
            dimension=dimension,
            max_input_length=max_input_length,
            max_client_batch_size=max_client_batch_size,
            api_key=api_key,
            info_enabled=info_enabled,
            raw_logits=raw_logits,
        )
        self._listen(_TEIHandler, host=host, port=port, state=self.state)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self.state.lock:
            return list(self.state.requests)

    def fail_next(self, count: int, *, status: int = 503, body: Any = None) -> None:
        """Answer the next `count` requests with `status` (and `body`, default a TEI error)."""
        error_body = body if body is not None else _error_body(status, "injected failure")
        with self.state.lock:
            self.state.failures.extend(_Failure(status, error_body) for _ in range(count))

    def delay(self, seconds: float) -> None:
        """Wait this long before answering each request (for client timeouts)."""
        with self.state.lock:
            self.state.delay_seconds = seconds

    def reset(self) -> None:
        with self.state.lock:
            self.state.failures.clear()
            self.state.requests.clear()
            self.state.delay_seconds = 0.0


@pytest.fixture
def tei_server() -> Iterator[FakeTEIServer]:
    with FakeTEIServer() as server:
        yield server


# --- The protocol ---------------------------------------------------------------------------------


class _TEIHandler(BaseHTTPRequestHandler):
    state: _State
    protocol_version = "HTTP/1.1"  # keep-alive, as httpx clients expect from TEI

    def do_GET(self) -> None:
        self._serve(None)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            self._record(raw.decode(errors="replace"))
            self._send(422, _error_body(422, "invalid JSON"))
            return
        self._serve(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean

    def _serve(self, body: Any) -> None:
        self._record(body)
        failure, delay = self._next_failure_and_delay()
        if delay:
            time.sleep(delay)
        if failure is not None:
            self._send(failure.status, failure.body)
            return
        if (
            self.state.api_key
            and self.headers.get("Authorization") != f"Bearer {self.state.api_key}"
        ):
            self._send(401, _error_body(401, "unauthorized"))
            return
        status, answer = _route(self.state, self.command, self.path, body)
        self._send(status, answer)

    def _record(self, body: Any) -> None:
        request = RecordedRequest(self.command, self.path, dict(self.headers.items()), body)
        with self.state.lock:
            self.state.requests.append(request)

    def _next_failure_and_delay(self) -> tuple[_Failure | None, float]:
        with self.state.lock:
            failure = self.state.failures.pop(0) if self.state.failures else None
            return failure, self.state.delay_seconds

    def _send(self, status: int, answer: Any) -> None:
        payload = b"" if answer is None else json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


def _route(state: _State, method: str, path: str, body: Any) -> tuple[int, Any]:
    if method == "GET" and path == "/health":
        return 200, None
    if method == "GET" and path == "/info" and state.info_enabled:
        return 200, _info(state)
    if method == "POST" and path == "/embed":
        return _embed(state, body)
    if method == "POST" and path == "/rerank":
        return _rerank(state, body)
    return 404, _error_body(404, "not found")


def _info(state: _State) -> dict[str, Any]:
    return {
        "model_id": "fake/hash-bag-of-words",
        "model_dtype": "float32",
        "model_type": {"embedding": {"pooling": "mean"}},
        "max_concurrent_requests": 512,
        "max_input_length": state.max_input_length,
        "max_batch_tokens": 16384,
        "max_client_batch_size": state.max_client_batch_size,
        "tokenization_workers": 1,
        "version": "fake",
    }


def _embed(state: _State, body: Any) -> tuple[int, Any]:
    inputs = body.get("inputs") if isinstance(body, dict) else None
    if isinstance(inputs, str):
        inputs = [inputs]
    if not isinstance(inputs, list) or not inputs or not all(isinstance(t, str) for t in inputs):
        return 422, _error_body(422, "`inputs` must be a non-empty string or list of strings")
    error = _validate_inputs(state, inputs, truncate=bool(body.get("truncate", False)))
    if error is not None:
        return error
    return 200, [_hashed_bag_of_words(text, state.dimension) for text in inputs]


def _rerank(state: _State, body: Any) -> tuple[int, Any]:
    query = body.get("query") if isinstance(body, dict) else None
    texts = body.get("texts") if isinstance(body, dict) else None
    if not isinstance(query, str) or not isinstance(texts, list) or not texts:
        return 422, _error_body(422, "`query` and a non-empty `texts` are required")
    error = _validate_inputs(state, texts, truncate=bool(body.get("truncate", False)))
    if error is not None:
        return error
    raw = state.raw_logits or bool(body.get("raw_scores", False))
    scores = [_overlap(query, text) for text in texts]
    # Logits of a cross-encoder are unbounded; map [0, 1] onto [-6, 6] to look like them.
    ranked = [
        {"index": index, "score": (score * 12.0 - 6.0) if raw else score}
        for index, score in enumerate(scores)
    ]
    ranked.sort(key=lambda item: -item["score"])
    return 200, ranked


def _validate_inputs(state: _State, texts: list[str], *, truncate: bool) -> tuple[int, Any] | None:
    """TEI's own checks: batch size, and input length unless the client asked to truncate."""
    if len(texts) > state.max_client_batch_size:
        message = f"batch size {len(texts)} > maximum allowed batch size"
        return 413, _error_body(413, message, "Validation")
    if not truncate and any(len(text.split()) > state.max_input_length for text in texts):
        return 413, _error_body(413, "`inputs` must have less tokens", "Validation")
    return None


def _error_body(status: int, message: str, error_type: str | None = None) -> dict[str, str]:
    kinds = {401: "Unhealthy", 413: "Validation", 422: "Validation", 503: "Overloaded"}
    return {"error": message, "error_type": error_type or kinds.get(status, "Backend")}


def _words(text: str) -> list[str]:
    return [word for word in _WORD.findall(text.lower()) if word not in _STOPWORDS]


def _hashed_bag_of_words(text: str, dimension: int) -> list[float]:
    vector = [0.0] * dimension
    for word in _words(text):
        number = int.from_bytes(hashlib.sha256(word.encode()).digest()[:8], "big")
        vector[(number >> 1) % dimension] += 1.0 if number & 1 else -1.0
    if not any(vector):
        vector[0] = 1.0  # a text of stopwords only still gets a usable direction
    norm = math.sqrt(sum(value * value for value in vector))
    # Scaled by 3 on purpose: clients must not assume unit vectors from the wire.
    return [3.0 * value / norm for value in vector]


def _overlap(query: str, text: str) -> float:
    query_words = set(_words(query))
    if not query_words:
        return 0.0
    return len(query_words & set(_words(text))) / len(query_words)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--dimension", type=int, default=384)
    parser.add_argument("--api-key", default=None)
    args = parser.parse_args()
    server = FakeTEIServer(
        dimension=args.dimension, api_key=args.api_key, host=args.host, port=args.port
    )
    print(f"Fake TEI server on {server.url}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


if __name__ == "__main__":
    main()
