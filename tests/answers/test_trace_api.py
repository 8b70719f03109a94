"""The decision trace of an answer and of a refusal, as the admin reads it back."""

import pytest
from openguru.answers.engine.ask import AskRequest
from openguru.answers.models import OutOfContextQuestion

from tests.answers.memory_guru import answer_events, indexed_guru, memory_providers
from tests.answers.test_engine_stages import IN_SCOPE, OUT_OF_SCOPE

pytestmark = [pytest.mark.fast, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def asked():
    providers = memory_providers()
    guru = indexed_guru(providers)
    answered = answer_events(AskRequest(guru=guru, question=IN_SCOPE), providers)
    answer_events(AskRequest(guru=guru, question=OUT_OF_SCOPE), providers)
    return answered[-1].data["id"], OutOfContextQuestion.objects.get().pk


def test_the_admin_reads_why_a_question_was_answered(admin_client, asked):
    question_id, _ = asked

    body = admin_client.get(f"/api/gurus/python/questions/{question_id}/trace/").json()

    assert (body["id"], body["question"], body["refused"]) == (question_id, IN_SCOPE, False)
    trace = body["trace"]
    assert (trace["decision"], trace["reason"], trace["llm"]) == ("answered", "passed_gate", False)
    assert trace["llm_calls"] == []  # no LLM configured: an extractive answer
    assert {row["id"] for row in trace["kept"]} <= {i for i, _ in trace["lists"]["fused"]}


def test_the_admin_reads_why_a_question_was_refused(admin_client, asked):
    _, refusal_id = asked

    body = admin_client.get(f"/api/gurus/python/refusals/{refusal_id}/trace/").json()

    assert (body["question"], body["refused"]) == (OUT_OF_SCOPE, True)
    assert (body["trace"]["decision"], body["trace"]["reason"]) == ("refused", "low_relevance")
    assert body["trace"]["best"] < body["trace"]["threshold"]


def test_traces_are_for_the_admin_only_and_per_guru(admin_client, anon_client, asked):
    question_id, refusal_id = asked

    anonymous = anon_client.get(f"/api/gurus/python/questions/{question_id}/trace/")
    other_guru = admin_client.get(f"/api/gurus/nope/questions/{question_id}/trace/")
    unknown = admin_client.get(f"/api/gurus/python/questions/{question_id + 1000}/trace/")
    crossed = admin_client.get(f"/api/gurus/python/refusals/{refusal_id + 1000}/trace/")

    assert anonymous.status_code in (401, 403)
    assert (other_guru.status_code, other_guru.json()["code"]) == (404, "guru_not_found")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "question_not_found")
    assert crossed.status_code == 404
