"""The bench's asking client against a loopback server streaming Server-Sent Events."""

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from benchmarks.sse import AskOutcome, SseParser, ask_stream, parse_events


def test_parser_joins_data_lines_and_skips_comments() -> None:
    lines = [
        ": keep-alive",
        "event: meta",
        'data: {"slug": "a"}',
        "",
        "data: first",
        "data: second",
        "",
        "",  # a second blank line is not an event
        "event: done",
        "data: {}",
    ]
    assert list(parse_events(lines)) == [
        ("meta", '{"slug": "a"}'),
        ("message", "first\nsecond"),
        ("done", "{}"),
    ]


def test_parser_dispatches_only_on_a_blank_line() -> None:
    parser = SseParser()
    assert parser.feed("event: delta") is None
    assert parser.feed('data: {"text": "x"}') is None
    assert parser.feed("") == ("delta", '{"text": "x"}')


def _event(name: str, data: dict) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if body["question"] == "broken":
            self.send_response(500)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")
            return
        refused = body["question"] == "off topic"
        events = [_event("meta", {"slug": "s1", "refused": refused})]
        events += [_event("delta", {"text": "Hel"}), _event("delta", {"text": "lo"})]
        if body["question"] != "cut short":
            events.append(_event("done", {"slug": "s1", "refused": refused}))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for event in events:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
            self.wfile.flush()
            time.sleep(0.01)
        self.wfile.write(b"0\r\n\r\n")


@pytest.fixture
def sse_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/stream/"
    finally:
        server.shutdown()
        server.server_close()


def _ask(url: str, question: str) -> AskOutcome:
    async def go() -> AskOutcome:
        async with httpx.AsyncClient() as client:
            return await ask_stream(client, url, question, mode="fast", timeout=10)

    return asyncio.run(go())


def test_a_streamed_answer_is_timed_at_its_first_delta(sse_url: str) -> None:
    outcome = _ask(sse_url, "what is a list?")
    assert outcome.events == ["meta", "delta", "delta", "done"]
    assert outcome.status == 200 and outcome.error == "" and outcome.answered
    assert outcome.slug == "s1"
    assert outcome.ttft_ms is not None
    assert 0 < outcome.ttft_ms <= outcome.total_ms


def test_refusals_are_not_counted_as_answers(sse_url: str) -> None:
    outcome = _ask(sse_url, "off topic")
    assert outcome.refused and not outcome.answered and outcome.error == ""


def test_http_errors_and_unfinished_streams_are_errors(sse_url: str) -> None:
    assert _ask(sse_url, "broken").error == "http 500"
    assert _ask(sse_url, "cut short").error == "stream ended without done"


def test_an_unreachable_server_is_an_error_not_an_exception() -> None:
    outcome = _ask("http://127.0.0.1:9/stream/", "anyone?")
    assert outcome.error == "ConnectError" and outcome.ttft_ms is None
