"""Loopback HTTP servers: the plumbing the fakes in tests/fakes/ share.

- `LoopbackServer`: an HTTP server on a loopback port served from a daemon thread, with
  `start`/`stop`, a context manager, `url`, and `serve_forever` for standalone use.
- `LoopbackApp`: a `LoopbackServer` for JSON APIs, with routing, latency, failure injection and
  a request log; the OpenAI and Gemini fakes add their protocols to it.
- `make_server_fixture`, `app_argument_parser` and `app_options`: a pytest fixture and the
  command line of a standalone `LoopbackApp`.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, Self
from urllib.parse import parse_qs


def free_port() -> int:
    """A loopback port nothing listens on right now (for servers, or for 'unreachable' tests)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class QuietHTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that stops reading (size cap, timeout) leaves a broken pipe: expected here.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class LoopbackServer:
    """An HTTP server on a loopback port, served from a daemon thread; a context manager.

    A subclass opens its server in `__init__` with `_listen` (so `url` is known before `start`),
    or implements `_open`, which `start` calls while no server is open.
    """

    _httpd: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    def _listen(
        self, handler: type[BaseHTTPRequestHandler], *, host: str, port: int, **attributes: Any
    ) -> None:
        """Open the server now; `attributes` become class attributes of a subclass of `handler`
        made for this server (how its handlers reach the fake's state)."""
        # The handler writes headers and body in two sends: with Nagle's algorithm the body
        # waits for the client's delayed ACK, 40 ms on every keep-alive response.
        attributes = {"disable_nagle_algorithm": True, **attributes}
        bound = type(handler.__name__, (handler,), attributes)
        self._httpd = QuietHTTPServer((host, port), bound)

    def _open(self) -> ThreadingHTTPServer:
        raise NotImplementedError(f"{type(self).__name__} opens its server in __init__.")

    def _server(self) -> ThreadingHTTPServer:
        if self._httpd is None:
            self._httpd = self._open()
        return self._httpd

    @property
    def url(self) -> str:
        if self._httpd is None:
            raise RuntimeError(f"{type(self).__name__} is not listening.")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> Self:
        self._thread = threading.Thread(
            target=self._server().serve_forever,
            kwargs={"poll_interval": 0.05},
            name=type(self).__name__,
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            if self._thread is not None:  # shutdown() waits for a serving loop to end
                self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def serve_forever(self) -> None:
        """Serve in the calling thread until interrupted (standalone use)."""
        httpd = self._server()
        try:
            httpd.serve_forever()
        finally:
            httpd.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def make_server_fixture(factory: Callable[[], LoopbackServer], scope: str = "function") -> Any:
    """A pytest fixture yielding a started server made by `factory` (stopped after its scope)."""
    import pytest

    @pytest.fixture(scope=scope)  # type: ignore[call-overload]
    def _server() -> Iterator[LoopbackServer]:
        with factory() as server:
            yield server

    return _server


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

    def do_PUT(self) -> None:
        self.server.app.dispatch(self)

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def read_json(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return {}
        if self.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
            return {key: values[-1] for key, values in parse_qs(raw.decode()).items()}
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

    def send_sse(self, events: Iterator[str], token_delay: float, *, together: int = 1) -> None:
        """Chunked `text/event-stream`, one write per event, so a client sees each token now.
        The first `together` events go out at once; `token_delay` separates the later ones."""
        app = self.server.app
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for index, event in enumerate(events):
                if index >= together and token_delay:
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


class LoopbackApp(LoopbackServer):
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

    # --- lifecycle ---------------------------------------------------------------------------

    def _open(self) -> _Server:
        httpd = _Server((self.host, self.port), FakeHandler)
        httpd.app = self
        self.port = httpd.server_address[1]
        return httpd

    def stop(self) -> None:
        super().stop()
        self._httpd = None  # a later start listens again, on the same port

    def run_until_signalled(self) -> None:
        """Serve in the foreground until SIGINT/SIGTERM (the standalone mode); then stop."""
        stopped = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stopped.set())
        try:
            stopped.wait()
        finally:
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
            body = handler.read_json() if handler.command in ("POST", "PUT") else {}
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


def app_argument_parser(description: str) -> argparse.ArgumentParser:
    """The command line of a standalone `LoopbackApp`: where it listens and its latency."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--call-ms", type=float, default=0.0)
    parser.add_argument("--token-ms", type=float, default=0.0)
    return parser


def app_options(args: argparse.Namespace) -> dict[str, Any]:
    """The `LoopbackApp` arguments from a parsed `app_argument_parser` command line."""
    return {
        "host": args.host,
        "port": args.port,
        "call_ms": args.call_ms,
        "token_ms": args.token_ms,
        "log_size": 100,
    }
