"""The answer engine end to end: real retrieval in Milvus, the gate, the loopback LLM, the DB."""

import asyncio
import json
import threading
import time

import numpy as np
import pytest
from django.core.cache import cache
from openguru.answers.engine import ask as engine
from openguru.answers.engine.providers import providers_for
from openguru.answers.models import OutOfContextQuestion, Question
from openguru.answers.selectors import question_slug_for
from openguru.providers.embeddings.factory import get_embedder
from openguru.sources.models import DataSource

from tests.answers.conftest import json_calls, page_url, stream_calls

pytestmark = pytest.mark.django_db(transaction=True)

IN_SCOPE = "How do I create a virtual environment with venv?"
OUT_OF_SCOPE = "Which Django middleware sets the CSRF cookie for templates?"


def ask(client, question, **extra):
    return ask_guru(client, "python", question, **extra)


def ask_guru(client, slug, question, **extra):
    response = client.post(
        f"/api/gurus/{slug}/answer/", {"question": question, **extra}, format="json"
    )
    assert response.status_code == 200, response.content
    return response.json()


def test_an_in_scope_question_is_answered_with_references(anon_client, python_guru, llm_server):
    body = ask(anon_client, IN_SCOPE, mode="fast")
    assert body["refused"] is False
    assert body["content"]
    links = [r["link"] for r in body["references"]]
    assert links and links[0].startswith(page_url("Virtual environments"))
    # The icon follows the source's type (pasted text), not its web-looking link.
    assert {r["icon"] for r in body["references"]} == {"text"}
    assert len(stream_calls(llm_server)) == 1
    question = Question.objects.get(slug=body["slug"])
    assert question.trace["sequential_llm_calls"] == 1
    weights = question.trace["list_weights"]  # what each ranking counted in the fusion
    assert set(weights) == {"dense0", "bm250"} and weights["dense0"] == 1.0
    assert 0.0 <= weights["bm250"] <= 1.0
    assert question.llm_model == "fake-gpt"
    assert 0 < question.trust_score <= 1
    prompt = stream_calls(llm_server)[0]["messages"][0]["content"]
    assert page_url("Virtual environments") in prompt


def test_an_out_of_scope_question_is_refused_without_an_answer_call(
    anon_client, python_guru, llm_server
):
    body = ask(anon_client, OUT_OF_SCOPE, mode="fast")
    assert body["refused"] is True
    assert "don't know" in body["content"]
    assert stream_calls(llm_server) == []
    assert OutOfContextQuestion.objects.filter(user_question=OUT_OF_SCOPE).exists()
    assert not Question.objects.exists()


def test_default_mode_takes_two_sequential_round_trips(anon_client, python_guru, llm_server):
    body = ask(anon_client, IN_SCOPE)
    question = Question.objects.get(slug=body["slug"])
    assert question.trace["sequential_llm_calls"] == 2
    names = {call["response_format"]["json_schema"]["name"] for call in json_calls(llm_server)}
    assert names == {"understanding", "relevance"}
    assert len(stream_calls(llm_server)) == 1


def call_names(server) -> list[str]:
    """The chat calls in the order they reached the server: "answer" or the schema's name."""
    return [
        "answer" if r.body.get("stream") else r.body["response_format"]["json_schema"]["name"]
        for r in list(server.requests)  # a copy: the watcher reads while the server appends
        if r.path.endswith("/chat/completions")
    ]


def test_default_mode_starts_understanding_alongside_retrieval(
    anon_client, python_guru_embedded_over_http, llm_server
):
    # The question's embedding is held at the server until understanding has reached it: that
    # call must be sent while retrieval waits, and so before the relevance call, which needs
    # retrieval's result.
    released, arrived = llm_server.hold_next_embedding(), threading.Event()
    watcher = threading.Thread(
        target=release_on_understanding, args=(llm_server, released, arrived)
    )
    watcher.start()
    try:
        ask(anon_client, IN_SCOPE)
    finally:
        released.set()
        watcher.join()
    assert arrived.is_set(), "understanding was not sent while the question was being embedded"
    assert call_names(llm_server) == ["understanding", "relevance", "answer"]


def release_on_understanding(
    server, released: threading.Event, arrived: threading.Event, timeout: float = 10.0
) -> None:
    """Release the held embedding once an understanding call has arrived (`arrived` tells), or at
    `timeout`, so an engine that waits for retrieval fails the test instead of hanging it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not released.is_set():
        if "understanding" in call_names(server):
            arrived.set()
            break
        time.sleep(0.002)
    released.set()


def test_fast_mode_starts_understanding_with_the_first_token(anon_client, python_guru, llm_server):
    body = ask(anon_client, IN_SCOPE, mode="fast")
    assert call_names(llm_server) == ["answer", "understanding"]
    question = Question.objects.get(slug=body["slug"])
    assert question.description  # still saved with the answer
    assert question.trace["understanding_ready"] is False


def test_a_refused_fast_question_calls_no_llm_at_all(anon_client, python_guru, llm_server):
    assert ask(anon_client, OUT_OF_SCOPE, mode="fast")["refused"] is True
    assert call_names(llm_server) == []


def test_the_same_question_twice_costs_one_answer(anon_client, python_guru, llm_server):
    first = ask(anon_client, IN_SCOPE, mode="fast")
    second = ask(anon_client, IN_SCOPE, mode="fast")
    assert second["cached"] is True
    assert second["content"] == first["content"]
    assert len(stream_calls(llm_server)) == 1
    assert Question.objects.count() == 1


def test_a_near_duplicate_question_reuses_the_answer(anon_client, python_guru, llm_server):
    ask(anon_client, IN_SCOPE, mode="fast")
    again = ask(anon_client, IN_SCOPE.replace("How do I", "how do i") + "??", mode="fast")
    assert again.get("cached") is True
    assert len(stream_calls(llm_server)) == 1


def test_a_reworded_question_reuses_the_answer_by_embedding(anon_client, python_guru, llm_server):
    ask(anon_client, IN_SCOPE, mode="fast")
    again = ask(anon_client, "With venv, how do I create a virtual environment?", mode="fast")
    assert again.get("cached") is True
    assert len(stream_calls(llm_server)) == 1


def test_a_question_with_the_same_slug_but_other_words_is_answered_anew(anon_client, python_guru):
    # Without an LLM a question's slug is made from its words, and slugs keep 80 characters:
    # these two differ only past them.
    start = "How do I create a virtual environment with venv when the project already has a"
    first, second = f"{start} requirements file?", f"{start} requirements lock?"
    answered = ask(anon_client, first)
    assert question_slug_for(second) == answered["slug"]
    again = ask(anon_client, second)
    assert again.get("cached") is not True
    assert again["slug"] != answered["slug"]
    assert Question.objects.count() == 2


def test_a_question_that_only_looks_alike_is_answered_anew(anon_client, python_guru, llm_server):
    first = "How do I create a virtual environment from a requirements file?"
    reverse = "How do I create a requirements file from a virtual environment?"
    embed = get_embedder().embed_query
    a, b = np.asarray(embed(first)), np.asarray(embed(reverse))
    assert a @ b / np.linalg.norm(a) / np.linalg.norm(b) >= 0.95  # the vectors alone would match
    ask(anon_client, first, mode="fast")
    again = ask(anon_client, reverse, mode="fast")
    assert again.get("cached") is not True
    assert len(stream_calls(llm_server)) == 2


def test_reindexing_a_cited_source_with_changes_makes_the_answer_stale(
    admin_client, anon_client, python_guru, llm_server
):
    first = ask(anon_client, IN_SCOPE, mode="fast")
    question = Question.objects.get(slug=first["slug"])
    assert question.trace["queries"] == [IN_SCOPE]
    prettified = question.question
    assert prettified != IN_SCOPE  # the loopback LLM's understanding rewords it
    cited = question.cited_sources.get()
    DataSource.objects.filter(pk=cited.pk).update(
        content=cited.content + "\nUse python -m venv --upgrade-deps to refresh pip.\n"
    )
    response = admin_client.post(f"/api/gurus/python/sources/{cited.pk}/reindex/")
    assert response.status_code == 202
    question.refresh_from_db()
    assert question.stale is True

    again = ask(anon_client, IN_SCOPE, mode="fast")
    assert again.get("cached") is not True
    assert len(stream_calls(llm_server)) == 2
    question.refresh_from_db()
    assert question.stale is False
    assert Question.objects.count() == 1
    # The regeneration also searched with the wording saved with the stale answer.
    assert question.trace["queries"] == [IN_SCOPE, prettified]
    assert set(question.trace["list_weights"]) == {"dense0", "bm250", "dense1", "bm251"}


def test_reindexing_without_changes_keeps_the_answer_fresh(
    admin_client, anon_client, python_guru, llm_server
):
    first = ask(anon_client, IN_SCOPE, mode="fast")
    cited = Question.objects.get(slug=first["slug"]).cited_sources.get()
    admin_client.post(f"/api/gurus/python/sources/{cited.pk}/reindex/")
    assert Question.objects.get(slug=first["slug"]).stale is False


def test_without_an_llm_the_answer_is_extracted_and_labelled(anon_client, python_guru):
    body = ask(anon_client, IN_SCOPE)
    assert body["extractive"] is True
    assert "Extracted from the sources" in body["content"]
    assert "python -m venv" in body["content"]
    assert body["references"][0]["link"].startswith(page_url("Virtual environments"))


def test_a_follow_up_carries_the_conversation(anon_client, python_guru, llm_server):
    root = ask(anon_client, IN_SCOPE, mode="fast")
    binge = anon_client.post(
        "/api/gurus/python/binges/", {"root_slug": root["slug"]}, format="json"
    ).json()
    follow = ask(
        anon_client,
        "How do I activate the virtual environment afterwards?",
        mode="fast",
        binge_id=binge["binge_id"],
    )
    assert follow["binge_id"] == binge["binge_id"]
    prompt = stream_calls(llm_server)[-1]["messages"][0]["content"]
    assert "follow-up" in prompt
    child = Question.objects.get(binge_id=binge["binge_id"])
    assert child.parent is not None and child.parent.slug == root["slug"]
    follow_up = "How do I activate the virtual environment afterwards?"
    earlier = Question.objects.get(slug=root["slug"]).question
    assert child.trace["queries"] == [follow_up, f"{earlier} {follow_up}"]
    tree = anon_client.get(f"/api/gurus/python/binges/{binge['binge_id']}/").json()
    assert [q["parent_slug"] for q in tree["questions"]] == [root["slug"]]


def test_bad_ask_input_gets_json_errors(anon_client, python_guru):
    malformed = anon_client.post(
        "/api/gurus/python/answer/", data="{oops", content_type="application/json"
    )
    assert malformed.status_code == 400
    assert malformed.json()["code"] == "malformed_json"
    empty = anon_client.post("/api/gurus/python/answer/", {"question": ""}, format="json")
    assert empty.status_code == 400
    assert empty.json()["code"] == "invalid_input"
    unknown = anon_client.post("/api/gurus/nope/answer/", {"question": "hi"}, format="json")
    assert unknown.status_code == 404
    assert unknown.json()["code"] == "guru_not_found"
    wrong_type = anon_client.post("/api/gurus/python/answer/", {"question": ["x"]}, format="json")
    assert wrong_type.status_code == 400


@pytest.fixture
def rate_limit_of_two(settings):
    """Two asks per minute, counted from zero: the counts live in the process's cache."""
    settings.ASK_RATE_LIMIT_PER_MINUTE = 2
    cache.clear()
    yield
    cache.clear()


def test_asks_are_rate_limited_per_ip(anon_client, python_guru, rate_limit_of_two):
    codes = [
        anon_client.post("/api/gurus/python/answer/", {"question": IN_SCOPE}, format="json")
        for _ in range(3)
    ]
    assert [c.status_code for c in codes] == [200, 200, 429]
    assert json.loads(codes[2].content)["code"] == "rate_limited"


def ask_status(client, **headers) -> int:
    return client.post(
        "/api/gurus/python/answer/", {"question": IN_SCOPE}, format="json", **headers
    ).status_code


def test_a_client_cannot_pick_its_own_address_to_escape_the_limit(
    anon_client, python_guru, settings, rate_limit_of_two
):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]  # the test client connects from 127.0.0.1
    codes = [ask_status(anon_client, HTTP_X_REAL_IP=f"203.0.113.{i}") for i in range(3)]
    assert codes == [200, 200, 429]


def test_behind_a_trusted_proxy_each_client_has_its_own_limit(
    anon_client, python_guru, settings, rate_limit_of_two
):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    first = [ask_status(anon_client, HTTP_X_REAL_IP="203.0.113.1") for _ in range(3)]
    assert first == [200, 200, 429]
    assert ask_status(anon_client, HTTP_X_REAL_IP="203.0.113.2") == 200


def test_a_guru_with_nothing_indexed_yet_refuses(anon_client, llm_server):
    from tests.gurus.helpers import guru_make

    guru = guru_make(slug="new", name="New", domain_knowledge="Not indexed yet")
    response = anon_client.post(
        "/api/gurus/new/answer/", {"question": IN_SCOPE, "mode": "fast"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["refused"] is True
    assert "has no sources" in response.json()["content"]  # not "rephrase it"
    assert stream_calls(llm_server) == []

    # A source added but not read yet: the user is told to come back, not to rephrase.
    DataSource.objects.create(
        guru=guru, type="text", url="text://notes", content="Notes.", status="PROCESSING"
    )
    body = ask_guru(anon_client, "new", IN_SCOPE)
    assert body["refused"] is True and "still reading its sources" in body["content"]
    assert stream_calls(llm_server) == []


def test_closing_the_stream_cancels_the_understanding_call(python_guru, llm_server):
    # A client that goes away mid-answer: fast mode has just sent the understanding call
    # (with the first token); nothing may keep running for a reader that is gone.
    llm_server.call_ms = 400

    async def first_token_then_close() -> list[asyncio.Task]:
        request = engine.AskRequest(guru=python_guru, question=IN_SCOPE, mode="fast")
        stream = engine.ask(request, providers_for(python_guru))
        async for event in stream:
            if event.name == "delta":
                break
        await stream.aclose()
        await asyncio.sleep(0.05)  # let a cancellation finish
        return [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]

    assert asyncio.run(first_token_then_close()) == []
    assert not Question.objects.exists()
