"""The v1 answer stream through uvicorn (the server `make run` uses): raw markdown, flushed as
the LLM produces it, and the stored answer fetched afterwards in Gurubase's JSON shape."""

import httpx
import pytest

from tests.answers.conftest import stream_calls
from tests.answers.test_answer_engine import IN_SCOPE

pytestmark = pytest.mark.django_db(transaction=True)


def test_answer_bytes_reach_the_client_while_the_llm_still_holds_the_rest(
    live_asgi, python_guru, llm_server, key_headers
):
    # The fake LLM sends its role chunk and one token, then holds the rest until released.
    release = llm_server.hold_streams(after_events=2)
    url = f"{live_asgi}/api/v1/python/answer/"
    body = {"question": IN_SCOPE, "stream": True}
    with httpx.stream("POST", url, json=body, headers=key_headers, timeout=30) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.headers["x-accel-buffering"] == "no"
        chunks = response.iter_text()
        received = ""
        while "\n\n" not in received or not received.split("\n\n", 1)[1]:
            received += next(chunks)  # the title line, then the first answer token
        assert received.startswith(f"# {IN_SCOPE}\n\n")
        assert not release.is_set()  # the answer has not ended: the LLM is still holding it
        release.set()
        received += "".join(chunks)
    assert len(stream_calls(llm_server)) == 1
    stored = httpx.post(
        url, json={"question": IN_SCOPE, "fetch_existing": True}, headers=key_headers
    ).json()
    assert received == f"# {IN_SCOPE}\n\n{stored['content']}"
    assert stored["session_id"] and stored["references"]


def test_fetch_existing_before_any_answer_is_404(live_asgi, python_guru, key_headers):
    response = httpx.post(
        f"{live_asgi}/api/v1/python/answer/",
        json={"question": "Never asked?", "fetch_existing": True},
        headers=key_headers,
    )
    assert response.status_code == 404
    assert response.json()["code"] == "question_not_found"


def test_a_follow_up_reaches_the_llm_with_the_conversation(
    live_asgi, python_guru, llm_server, key_headers
):
    url = f"{live_asgi}/api/v1/python/answer/"
    first = httpx.post(url, json={"question": IN_SCOPE}, headers=key_headers, timeout=30).json()
    follow_up = {"question": "How do I activate it?", "session_id": first["session_id"]}
    second = httpx.post(url, json=follow_up, headers=key_headers, timeout=30)
    assert second.status_code == 200, second.text
    assert second.json()["session_id"] == first["session_id"]
    prompt = stream_calls(llm_server)[-1]["messages"][0]["content"]
    assert IN_SCOPE in prompt  # the earlier question is part of the follow-up's prompt


def test_api_answers_ask_the_llm_for_a_short_answer(
    live_asgi, python_guru, llm_server, key_headers, settings
):
    httpx.post(
        f"{live_asgi}/api/v1/python/answer/",
        json={"question": IN_SCOPE},
        headers=key_headers,
        timeout=30,
    )
    system = stream_calls(llm_server)[-1]["messages"][0]["content"]
    assert f"at most {settings.ANSWER_SHORT_MAX_WORDS} words" in system


def test_a_repeated_question_shares_a_session_until_it_is_followed_up(
    live_asgi, python_guru, key_headers
):
    url = f"{live_asgi}/api/v1/python/answer/"

    def ask(**body) -> str:
        response = httpx.post(url, json=body, headers=key_headers, timeout=30)
        assert response.status_code == 200, response.text
        return response.json()["session_id"]

    first = ask(question=IN_SCOPE)
    assert ask(question=IN_SCOPE.upper()) == first  # no empty session is left per repeat
    assert ask(question="How do I activate it?", session_id=first) == first
    fresh = ask(question=IN_SCOPE)
    assert fresh != first  # the first session has a conversation now: a new one starts
    assert ask(question=IN_SCOPE) == fresh
