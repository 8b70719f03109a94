"""Past its capacity the server sheds answers: the live ASGI app (uvicorn) with room for two
answers and one waiting ask, the loopback LLM holding its streams. Every channel refuses the
asks beyond that with 503 `overloaded` and Retry-After before any LLM call, the admitted answers
and the waiting one complete once the LLM goes on, and the slots are free again after."""

import math
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from mcp import Client
from openguru.answers.engine import admission
from openguru.answers.engine.admission import OVERLOADED_MSG
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create
from openguru.integrations.widget.services import widget_id_create

from tests.answers.conftest import python_guru, stream_calls  # noqa: F401  (three indexed pages)
from tests.answers.test_streaming_http import live_asgi, read_events  # noqa: F401
from tests.api_v1.test_mcp import text_of, with_mcp
from tests.fakes.openai_server import FakeOpenAIServer

pytestmark = pytest.mark.django_db(transaction=True)

HELD = (
    "How do I create a virtual environment with venv?",
    "What does a list comprehension do?",
)
QUEUED = "How do I handle exceptions in Python?"
AFTER = ("How do I install packages into a virtual environment?", "How do I catch an exception?")
SITE = "https://docs.example.com"
WAIT_SECONDS = 90  # how long the queued ask may wait: far longer than the burst takes


@pytest.fixture
def tight(settings) -> None:
    settings.ANSWER_MAX_IN_FLIGHT = 2
    settings.ANSWER_MAX_QUEUED = 1
    settings.ANSWER_QUEUE_WAIT_SECONDS = WAIT_SECONDS


def _answer_stream(url: str, question: str) -> tuple[int, list[str]]:
    """An answer on the internal SSE stream: its status and its events' names."""
    with httpx.stream("POST", url, json={"question": question, "mode": "fast"}, timeout=60) as r:
        if r.status_code != 200:
            r.read()
            return r.status_code, [r.text]
        return r.status_code, [name for name, _ in read_events(r.iter_lines())]


def _until(predicate: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 120  # a bound, not a speed: only a hang fails it
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _waiting_asks() -> int:
    return sum(slots.waiting for slots in list(admission._slots.values()))


def _start_held(
    pool: ThreadPoolExecutor, url: str, questions: tuple[str, ...], llm: FakeOpenAIServer
) -> list[Future]:
    """Answers whose LLM streams the loopback LLM holds: each is in flight once its stream
    call has reached the LLM."""
    calls = len(stream_calls(llm))
    futures = [pool.submit(_answer_stream, url, question) for question in questions]
    _until(lambda: len(stream_calls(llm)) == calls + len(questions), "the answers to start")
    return futures


def _burst(origin: str, key: str, widget: str) -> dict[str, httpx.Response]:
    """One over-capacity ask per HTTP channel."""
    question = {"question": "What is a virtual environment for?"}
    v1, chat = f"{origin}/api/v1/python", {"messages": [{"role": "user", "content": "Why venv?"}]}
    keyed = {"X-API-KEY": key}
    asks: dict[str, tuple[str, dict[str, Any], dict[str, str]]] = {
        "stream": (f"{origin}/api/gurus/python/answer/stream/", question, {}),
        "json": (f"{origin}/api/gurus/python/answer/", question, {}),
        "v1": (f"{v1}/answer/", question, keyed),
        "v1 stream": (f"{v1}/answer/", question | {"stream": True}, keyed),
        "chat": (f"{v1}/chat/completions", chat, {"Authorization": f"Bearer {key}"}),
        "chat stream": (f"{v1}/chat/completions", chat | {"stream": True}, keyed),
        "widget": (
            f"{origin}/api/widget/ask/",
            question,
            {"Authorization": widget, "Origin": SITE},
        ),
    }
    return {
        name: httpx.post(url, json=body, headers=headers, timeout=30)
        for name, (url, body, headers) in asks.items()
    }


def _mcp_ask(origin: str, key: str) -> Any:
    async def use(client: Client) -> Any:
        return await client.call_tool("ask_python", {"question": "Why use venv?"})

    return with_mcp(origin, {"X-API-KEY": key}, use)


def test_asks_past_capacity_are_shed_on_every_channel_and_the_rest_complete(
    live_asgi,  # noqa: F811
    python_guru,  # noqa: F811
    llm_server,
    tight,
):
    _, key = api_key_create(user=admin_token_owner(), name="shedding")
    widget = widget_id_create(guru=python_guru, domain_pattern=SITE).key
    stream_url = f"{live_asgi}/api/gurus/python/answer/stream/"
    gate = llm_server.hold_streams(after_events=1)  # no answer token until the gate opens
    with ThreadPoolExecutor(max_workers=3) as pool:
        held = _start_held(pool, stream_url, HELD, llm_server)
        queued = pool.submit(
            httpx.post,
            f"{live_asgi}/api/v1/python/answer/",
            json={"question": QUEUED},
            headers={"X-API-KEY": key},
            timeout=60,
        )
        _until(lambda: _waiting_asks() == 1, "the third ask to wait for a slot")
        llm_calls = len(llm_server.requests)

        shed = _burst(live_asgi, key, widget)
        mcp = _mcp_ask(live_asgi, key)

        assert len(llm_server.requests) == llm_calls  # refused before any LLM call
        for name, response in shed.items():
            assert response.status_code == 503, (name, response.text)
            assert response.headers["content-type"] == "application/json", name
            assert response.headers["retry-after"] == str(math.ceil(WAIT_SECONDS)), name
            body = response.json()
            assert (body["code"], body["msg"]) == ("overloaded", OVERLOADED_MSG), name
        assert shed["chat"].json()["error"]["type"] == "server_error"  # OpenAI's envelope too
        assert mcp.is_error and text_of(mcp) == OVERLOADED_MSG
        assert not queued.done()

        gate.set()
        for future in held:
            status, names = future.result(timeout=60)
            assert (status, names[0], names[-1]) == (200, "meta", "done"), names
        answered = queued.result(timeout=60)
        assert answered.status_code == 200, answered.text
        assert answered.json()["content"]

    # Every slot was given back: two answers at once fit again, each with its first token held.
    gate = llm_server.hold_streams(after_events=1)
    with ThreadPoolExecutor(max_workers=2) as pool:
        again = _start_held(pool, stream_url, AFTER, llm_server)
        gate.set()
        for future in again:
            status, names = future.result(timeout=60)
            assert status == 200 and names[-1] == "done", names
