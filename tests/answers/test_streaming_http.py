"""Server-Sent Events over real HTTP from the ASGI app: nothing is buffered at the server."""

import json
from collections.abc import Iterator

import httpx
import pytest
from openguru.core.asgi import takes_lean_handler

from tests.answers.conftest import stream_calls
from tests.answers.test_answer_engine import IN_SCOPE
from tests.live_servers import serve_asgi

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def live_asgi() -> Iterator[str]:
    from config.asgi import application

    with serve_asgi(application) as url:
        yield url


def read_events(lines: Iterator[str]) -> Iterator[tuple[str, dict]]:
    name = ""
    for line in lines:
        if line.startswith("event: "):
            name = line.removeprefix("event: ")
        elif line.startswith("data: "):
            yield name, json.loads(line.removeprefix("data: "))


def test_meta_arrives_before_the_llm_produces_its_first_token(live_asgi, python_guru, llm_server):
    # The fake LLM sends its role chunk, then holds every content token until released.
    release = llm_server.hold_streams(after_events=1)
    url = f"{live_asgi}/api/gurus/python/answer/stream/"
    with httpx.stream("POST", url, json={"question": IN_SCOPE, "mode": "fast"}, timeout=30) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        events = read_events(r.iter_lines())
        name, meta = next(events)
        assert name == "meta"
        assert meta["references"] and meta["slug"]
        assert not release.is_set()  # no token has left the LLM yet
        release.set()
        rest = list(events)
    names = [n for n, _ in rest]
    assert names[-1] == "done"
    deltas = "".join(d["text"] for n, d in rest if n == "delta")
    assert deltas == rest[-1][1]["content"]
    assert len(stream_calls(llm_server)) == 1


def test_stream_errors_are_json_before_the_stream_starts(live_asgi, python_guru):
    response = httpx.post(f"{live_asgi}/api/gurus/nope/answer/stream/", json={"question": "x"})
    assert response.status_code == 404
    assert response.json()["code"] == "guru_not_found"


def test_answer_endpoints_skip_the_site_middleware_and_keep_their_headers(live_asgi, python_guru):
    # XFrameOptionsMiddleware marks every response that goes through the site's middleware.
    site = httpx.get(f"{live_asgi}/api/health/")
    assert site.headers["x-frame-options"] == "DENY"
    for path in ("answer/stream/", "answer/"):
        response = httpx.post(f"{live_asgi}/api/gurus/nope/{path}", json={"question": "x"})
        assert response.status_code == 404, path
        assert "x-frame-options" not in response.headers
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "same-origin"


@pytest.mark.parametrize(
    ("path", "lean"),
    [
        ("/api/gurus/python/answer/", True),
        ("/api/gurus/python/answer/stream/", True),
        ("/api/gurus/python/answer", False),
        ("/api/gurus/python/answer/stream/x/", False),
        ("/api/gurus/python/questions/q/", False),
        ("/admin/api/gurus/python/answer/", False),
    ],
)
def test_only_the_answer_paths_take_the_lean_handler(path, lean):
    assert takes_lean_handler(path) is lean
