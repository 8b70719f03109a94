"""The answer engine with a TEI reranker configured (the loopback TEI server over HTTP): the
fused candidates are reranked, the reranker's scores are what the trust gate reads, and default
mode then needs no LLM relevance call."""

from collections.abc import Iterator

import pytest
from openguru.answers.models import OutOfContextQuestion, Question

from tests.answers.conftest import json_calls, page_url, stream_calls
from tests.answers.test_answer_engine import IN_SCOPE, OUT_OF_SCOPE, ask
from tests.conftest import clear_provider_caches
from tests.fakes.tei_server import FakeTEIServer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def reranker(settings) -> Iterator[FakeTEIServer]:
    with FakeTEIServer() as server:
        settings.RERANK_API_URL = server.url
        clear_provider_caches()
        yield server
    clear_provider_caches()


def rerank_calls(server: FakeTEIServer) -> list[dict]:
    return [r.body for r in server.requests if r.path == "/rerank"]


def test_reranker_scores_feed_the_gate_and_replace_the_relevance_call(
    anon_client, python_guru, llm_server, reranker
):
    body = ask(anon_client, IN_SCOPE)  # default mode

    assert body["refused"] is False
    assert body["references"][0]["link"].startswith(page_url("Virtual environments"))
    [call] = rerank_calls(reranker)
    assert call["query"] == IN_SCOPE and call["texts"]
    question = Question.objects.get(slug=body["slug"])
    trace = question.trace
    assert trace["retrieval_mode"] == "hybrid_rerank"
    # The fake scores the share of the question's words a text holds: the venv page has them all.
    kept = trace["kept"]
    assert kept[0]["rerank"] == 1.0 and all(row["relevance"] == row["rerank"] for row in kept)
    assert question.trust_score == pytest.approx(sum(r["rerank"] for r in kept) / len(kept))
    # The reranker judged relevance: one LLM round trip before the answer, not two.
    assert trace["sequential_llm_calls"] == 1
    names = {c["response_format"]["json_schema"]["name"] for c in json_calls(llm_server)}
    assert names == {"understanding"}
    assert len(stream_calls(llm_server)) == 1


def test_a_question_the_reranker_finds_nothing_for_is_refused(
    anon_client, python_guru, llm_server, reranker
):
    body = ask(anon_client, OUT_OF_SCOPE, mode="fast")

    assert body["refused"] is True
    assert len(rerank_calls(reranker)) == 1
    assert stream_calls(llm_server) == []
    refusal = OutOfContextQuestion.objects.get(user_question=OUT_OF_SCOPE)
    assert refusal.trace["retrieval_mode"] == "hybrid_rerank"
    assert refusal.trace["best"] < 0.35  # the reranker's best score, below the threshold
