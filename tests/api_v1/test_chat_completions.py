"""The OpenAI-compatible door, spoken to by the official `openai` SDK over real HTTP: the ASGI
app under uvicorn, the python guru's three indexed pages, and the loopback LLM (`llm_server`)
where an answer should be written by a model."""

import httpx
import openai
import pytest
from openguru.answers.engine.ask import AskRequest
from openguru.answers.engine.refusal import REFUSAL
from openguru.answers.models import Binge, Question
from openguru.api_v1.conversations import HISTORY_TURNS, conversation_from_messages
from openguru.core.errors import DomainError
from openguru.gurus.models import Guru

from tests.answers.conftest import page_url, stream_calls
from tests.answers.test_answer_engine import IN_SCOPE, OUT_OF_SCOPE

pytestmark = pytest.mark.django_db(transaction=True)

VENV_PAGE = page_url("Virtual environments")
FOLLOW_UP = "How do I activate the virtual environment?"


@pytest.fixture
def client(live_asgi: str, api_key: str) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=f"{live_asgi}/api/v1/python", api_key=api_key, max_retries=0, timeout=60
    )


def ask(client: openai.OpenAI, *messages: tuple[str, str]) -> str:
    completion = client.chat.completions.create(
        model="python-guru",
        messages=[{"role": role, "content": content} for role, content in messages],
    )
    assert completion.object == "chat.completion"
    assert completion.model == "python-guru"
    assert completion.choices[0].finish_reason == "stop"
    assert completion.choices[0].message.role == "assistant"
    return completion.choices[0].message.content or ""


def test_an_answer_comes_as_a_chat_completion_with_its_source(client, python_guru, llm_server):
    text = ask(client, ("user", IN_SCOPE))
    assert "python -m venv myenv" in text
    assert f"]({VENV_PAGE}" in text
    assert len(stream_calls(llm_server)) == 1  # one answer, written by the model


def test_the_sources_are_listed_after_the_answer_numbered_as_cited(
    client, python_guru, llm_server, settings
):
    settings.ANSWER_MODE = "fast"  # the answer is the first call, so it gets the scripted text
    llm_server.script("Use python -m venv myenv.")
    text = ask(client, ("user", IN_SCOPE))
    assert text.startswith("Use python -m venv myenv.\n\nSources:\n[1] [Virtual environments](")
    assert VENV_PAGE in text


def test_without_an_llm_the_extracted_answer_names_its_source(client, python_guru):
    completion = client.chat.completions.create(
        model="", messages=[{"role": "user", "content": IN_SCOPE}]
    )
    text = completion.choices[0].message.content or ""
    assert "python -m venv myenv" in text
    assert f"]({VENV_PAGE}" in text
    assert completion.model == "python"  # no model asked for: the guru's slug
    assert completion.usage is not None and completion.usage.total_tokens == 0


def test_a_streamed_answer_arrives_in_chunks_that_add_up_to_the_answer(
    client, python_guru, llm_server
):
    stream = client.chat.completions.create(
        model="python-guru", messages=[{"role": "user", "content": IN_SCOPE}], stream=True
    )
    chunks = list(stream)
    assert chunks[0].choices[0].delta.role == "assistant"
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert all(c.object == "chat.completion.chunk" and c.id == chunks[0].id for c in chunks)
    pieces = [c.choices[0].delta.content for c in chunks if c.choices[0].delta.content]
    assert len(pieces) > 3  # the model's tokens, passed on as they came
    streamed = "".join(pieces)
    # The same question again is served from the saved answer: the same text, whole.
    assert streamed == ask(client, ("user", IN_SCOPE))
    assert f"]({VENV_PAGE}" in streamed
    assert len(stream_calls(llm_server)) == 1


def test_a_follow_up_gives_the_model_the_conversation(client, python_guru, llm_server, api_key):
    ask(client, ("user", IN_SCOPE))
    earlier_answer = "Run python -m venv myenv to create it."
    text = ask(
        client,
        ("system", "You are a helpful assistant."),
        ("user", IN_SCOPE),
        ("assistant", earlier_answer),
        ("user", FOLLOW_UP),
    )
    assert text
    prompt = stream_calls(llm_server)[-1]["messages"][0]["content"]
    assert "This is a follow-up in a conversation" in prompt
    assert f"Q: {IN_SCOPE}" in prompt
    assert f"Last answer: {earlier_answer}" in prompt
    assert "helpful assistant" not in prompt  # the guru keeps its own instructions
    # Saved in a session of its own, so it is never reused for someone without this history.
    follow_up = Question.objects.get(user_question=FOLLOW_UP)
    assert follow_up.binge is not None
    assert follow_up.binge.owner.is_superuser


def test_with_history_a_question_answered_before_is_answered_anew(client, python_guru, llm_server):
    first = ask(client, ("user", IN_SCOPE))
    again = ask(
        client,
        ("user", "What is a virtual environment?"),
        ("assistant", "An isolated Python."),
        ("user", IN_SCOPE),
    )
    assert len(stream_calls(llm_server)) == 2  # the cached answer did not serve the follow-up
    assert "This is a follow-up" in stream_calls(llm_server)[-1]["messages"][0]["content"]
    assert first and again


def test_a_refusal_is_an_ordinary_assistant_message(client, python_guru, llm_server, settings):
    settings.ANSWER_MODE = "fast"  # relevance by the loopback model would let anything through
    assert ask(client, ("user", OUT_OF_SCOPE)) == REFUSAL
    stream = client.chat.completions.create(
        model="python-guru", messages=[{"role": "user", "content": OUT_OF_SCOPE}], stream=True
    )
    chunks = list(stream)
    assert "".join(c.choices[0].delta.content or "" for c in chunks) == REFUSAL
    assert chunks[-1].choices[0].finish_reason == "stop"
    # A refused follow-up leaves no empty session behind.
    earlier = "Which Django setting lists the installed apps?"
    refused = ask(client, ("user", earlier), ("assistant", "No idea."), ("user", OUT_OF_SCOPE))
    assert refused == REFUSAL
    assert not Binge.objects.exists()


def test_a_bad_key_is_an_authentication_error(live_asgi, python_guru):
    bad = openai.OpenAI(base_url=f"{live_asgi}/api/v1/python", api_key="og_nope", max_retries=0)
    with pytest.raises(openai.AuthenticationError) as raised:
        bad.chat.completions.create(model="", messages=[{"role": "user", "content": IN_SCOPE}])
    assert raised.value.status_code == 401
    assert raised.value.code == "not_authenticated"


def test_errors_are_openai_errors_and_ours(live_asgi, python_guru, api_key):
    url = f"{live_asgi}/api/v1/python/chat/completions"
    body = {"messages": [{"role": "user", "content": IN_SCOPE}]}
    missing = httpx.post(url, json=body)
    assert missing.status_code == 401
    error = missing.json()
    assert error["code"] == "not_authenticated" and "X-API-KEY" in error["msg"]
    assert error["error"] == {
        "message": error["msg"],
        "type": "authentication_error",
        "param": None,
        "code": "not_authenticated",
    }
    invalid = httpx.post(url, json={"messages": []}, headers={"X-API-KEY": api_key})
    assert invalid.status_code == 400
    assert invalid.json()["code"] == "invalid_input"
    assert invalid.json()["error"]["type"] == "invalid_request_error"
    assert httpx.get(url, headers={"X-API-KEY": api_key}).json()["code"] == "method_not_allowed"


def test_the_key_may_come_in_x_api_key_and_the_path_may_end_in_a_slash(
    live_asgi, python_guru, api_key
):
    response = httpx.post(
        f"{live_asgi}/api/v1/python/chat/completions/",
        json={"messages": [{"role": "user", "content": IN_SCOPE}]},
        headers={"X-API-KEY": api_key},
        timeout=60,
    )
    assert response.status_code == 200, response.text
    assert VENV_PAGE in response.json()["choices"][0]["message"]["content"]


def test_an_unknown_guru_is_not_found(live_asgi, python_guru, api_key):
    client = openai.OpenAI(base_url=f"{live_asgi}/api/v1/nope", api_key=api_key, max_retries=0)
    with pytest.raises(openai.NotFoundError) as raised:
        client.chat.completions.create(model="", messages=[{"role": "user", "content": "hi"}])
    assert raised.value.code == "guru_not_found"


def test_the_conversation_is_read_from_openai_messages():
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "assistant", "content": "Hello! Ask me anything."},  # before any question
    ]
    for n in range(HISTORY_TURNS + 2):
        messages += [
            {"role": "user", "content": [{"type": "text", "text": f"question {n}"}]},
            {"role": "assistant", "content": f"answer {n}"},
            {"role": "tool", "content": "ignored", "tool_call_id": "x"},
        ]
    messages.append({"role": "user", "content": "  the question  "})
    conversation = conversation_from_messages(messages)
    assert conversation.question == "the question"
    assert len(conversation.history) == HISTORY_TURNS
    assert conversation.history[-1] == (
        f"question {HISTORY_TURNS + 1}",
        f"answer {HISTORY_TURNS + 1}",
    )
    for bad in ([{"role": "assistant", "content": "hi"}], [{"role": "user", "content": " "}]):
        with pytest.raises(DomainError):
            conversation_from_messages(bad)


def test_history_is_only_given_with_a_binge_to_save_the_answer_in():
    with pytest.raises(ValueError):
        AskRequest(guru=Guru(slug="x"), question="q", history=(("a", "b"),))
