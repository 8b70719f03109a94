"""The LLM provider fails mid-ask: it answers 500, it hangs past the timeout, or it cuts the
stream. With a fallback model the fallback answers; without one the stream ends with an `error`
event. A broken answer is never saved, so asking again gets a whole answer, not a cached half."""

import httpx
import pytest
from openguru.answers.models import Question

from tests.answers.conftest import _indexed_python_guru
from tests.answers.test_streaming_http import live_asgi, read_events
from tests.conftest import clear_provider_caches
from tests.fakes.openai_server import FakeOpenAIServer, ModelFailure

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["live_asgi"]  # a fixture, used by name

PRIMARY, FALLBACK = "fake-gpt", "fake-fallback"
QUESTION = "How do I create a virtual environment?"
TIMEOUT_SECONDS = 1.0
FAILURES = {
    "error 500": ModelFailure(status=500),
    "timeout": ModelFailure(hang_seconds=TIMEOUT_SECONDS * 3),
    "cut before the first word": ModelFailure(cut_after_events=1),  # the role chunk only
}
CUT_MID_ANSWER = ModelFailure(cut_after_events=3)  # the role chunk and two words


@pytest.fixture
def guru(settings, llm_server: FakeOpenAIServer):
    settings.LLM_TIMEOUT_SECONDS = TIMEOUT_SECONDS
    settings.LLM_MAX_RETRIES = 0
    settings.ANSWER_MODE = "fast"
    clear_provider_caches()
    guru = _indexed_python_guru()
    llm_server.reset()
    return guru


@pytest.fixture
def with_fallback(settings):
    settings.LLM_FALLBACK_MODEL = FALLBACK
    clear_provider_caches()


def _ask(origin: str, question: str = QUESTION) -> list[tuple[str, dict]]:
    url = f"{origin}/api/gurus/python/answer/stream/"
    with httpx.stream("POST", url, json={"question": question}, timeout=60) as response:
        assert response.status_code == 200, response.read()
        return list(read_events(response.iter_lines()))


def _answer_text(events: list[tuple[str, dict]]) -> str:
    return "".join(data["text"] for name, data in events if name == "delta")


def _answer_models(server: FakeOpenAIServer) -> list[str]:
    return [
        str(r.body["model"])
        for r in server.requests
        if r.path.endswith("/chat/completions") and r.body.get("stream")
    ]


@pytest.mark.parametrize("failure", [*FAILURES, "cut mid-answer"])
def test_without_a_fallback_the_stream_ends_with_an_error_and_nothing_is_kept(
    failure, guru, llm_server, live_asgi
):
    llm_server.fail_model(PRIMARY, FAILURES.get(failure, CUT_MID_ANSWER))

    events = _ask(live_asgi)

    assert events[0][0] == "meta"
    name, data = events[-1]
    assert name == "error", events
    assert data["code"] == "provider_unavailable" and data["msg"]
    assert "done" not in [n for n, _ in events]
    assert not Question.objects.exists()

    llm_server.fail_model(PRIMARY, None)  # the provider is back: the same question, in full
    again = _ask(live_asgi)
    done = again[-1][1]
    assert again[-1][0] == "done" and not done.get("cached")
    assert done["content"] == _answer_text(again)
    assert Question.objects.get().content == done["content"]
    if failure == "cut mid-answer":
        assert done["content"].startswith(_answer_text(events))
        assert len(done["content"]) > len(_answer_text(events))


@pytest.mark.parametrize("failure", FAILURES)
def test_with_a_fallback_model_the_fallback_answers(
    failure, guru, with_fallback, llm_server, live_asgi
):
    llm_server.fail_model(PRIMARY, FAILURES[failure])

    events = _ask(live_asgi)

    assert events[-1][0] == "done", events
    assert _answer_models(llm_server) == [PRIMARY, FALLBACK]
    saved = Question.objects.get()
    assert saved.llm_model == FALLBACK
    assert saved.content == _answer_text(events) == events[-1][1]["content"]
    assert "python -m venv" in saved.content  # the whole answer, from the guru's page


def test_with_a_fallback_a_stream_cut_mid_answer_is_not_restarted_nor_kept(
    guru, with_fallback, llm_server, live_asgi
):
    llm_server.fail_model(PRIMARY, CUT_MID_ANSWER)

    events = _ask(live_asgi)

    # The reader has the first words already; another model's answer would repeat them.
    assert events[-1][0] == "error" and events[-1][1]["code"] == "provider_unavailable"
    assert _answer_text(events)
    assert _answer_models(llm_server) == [PRIMARY]
    assert not Question.objects.exists()

    llm_server.fail_model(PRIMARY, None)
    again = _ask(live_asgi)
    assert again[-1][0] == "done" and not again[-1][1].get("cached")
    assert Question.objects.get().content == _answer_text(again) != _answer_text(events)
