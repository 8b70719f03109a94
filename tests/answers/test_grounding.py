"""The grounding check: an answer's claims labelled against its contexts by one LLM call after the
answer was saved (a Celery task: eager here, a real worker in the last test), the result stored
on the question and its trust score lowered for claims the contexts do not back."""

import asyncio
import json
from pathlib import Path

import jsonschema
import pytest
from celery import Celery
from openguru.answers.engine.context import Context
from openguru.answers.engine.providers import providers_for
from openguru.answers.models import OutOfContextQuestion, Question
from openguru.answers.quality.grounding import answer_claims, answer_grounding, parse_verdicts
from openguru.answers.quality.grounding_check import question_grounding_check
from openguru.answers.tasks import question_grounding_task
from openguru.providers.llm.factory import get_llm

from tests.answers.conftest import PAGES, json_calls, page_url
from tests.fakes.grounding_judge import UNSUPPORTED_SENTENCE
from tests.integration.worker import BROKERS, celery_worker, purge, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

IN_SCOPE = "How do I create a virtual environment with venv?"
OUT_OF_SCOPE = "Which Django middleware sets the CSRF cookie for templates?"


SNAPSHOT = Path(__file__).parents[1] / "core" / "openapi_snapshot.json"


def assert_documented(value: object, component: str) -> None:
    """`value` is what the OpenAPI document says `component` is (the UI's types come from it)."""
    components = json.loads(SNAPSHOT.read_text())["components"]
    schema = {"$ref": f"#/components/schemas/{component}", "components": components}
    jsonschema.Draft202012Validator(schema).validate(value)


@pytest.fixture
def grounding_on(settings) -> None:
    settings.ANSWER_GROUNDING = True


def ask(client, question: str) -> dict:
    response = client.post(
        "/api/gurus/python/answer/", {"question": question, "mode": "fast"}, format="json"
    )
    assert response.status_code == 200, response.content
    return response.json()


def grounding_calls(server) -> list[dict]:
    return [
        c for c in json_calls(server) if c["response_format"]["json_schema"]["name"] == "grounding"
    ]


def venv_context() -> Context:
    context = Context(source_id=1, title="Virtual environments", link="", type="text", relevance=1)
    context.parts.append((0.0, PAGES["Virtual environments"]))
    return context


def test_claims_are_the_answers_sentences_without_headings_code_or_sources():
    answer = (
        "## Creating one\n\n"
        "Create a virtual environment with python -m venv myenv. Activate it with\n"
        "source myenv/bin/activate [Virtual environments](https://docs.example.org/venv.html). "
        "Then pip installs into it. [Packages](https://docs.example.org/pip.html)\n\n"
        "```bash\npython -m venv myenv. Not a claim at all.\n```\n\n"
        "- Install packages with pip afterwards.\n"
        "- Ok.\n\n"
        "| option | meaning |\n|---|---|\n\n"
        "**Sources:**\n- [Virtual environments](https://docs.example.org/venv.html) explains it.\n"
    )
    assert answer_claims(answer) == [
        "Create a virtual environment with python -m venv myenv.",
        "Activate it with source myenv/bin/activate Virtual environments.",
        "Then pip installs into it.",
        "Install packages with pip afterwards.",
    ]


def test_citation_numbers_are_not_part_of_a_claim():
    answer = (
        "Create a virtual environment with python -m venv myenv [[1]](https://docs.example.org/v)."
        " Activate it with source myenv/bin/activate. [[2]](https://docs.example.org/a)[1]\n\n"
        "> Then pip installs into the environment. [3]\n"
    )
    assert answer_claims(answer) == [
        "Create a virtual environment with python -m venv myenv.",
        "Activate it with source myenv/bin/activate.",
        "Then pip installs into the environment.",
    ]


def test_a_supported_answer_is_checked_and_keeps_its_trust_score(
    anon_client, python_guru, llm_server, grounding_on
):
    body = ask(anon_client, IN_SCOPE)
    question = Question.objects.get(slug=body["slug"])
    grounding = question.grounding
    assert grounding["status"] == "checked", grounding
    assert grounding["unsupported"] == 0 and grounding["partly"] == 0
    [claim] = grounding["claims"]  # the model quoted one sentence of the venv page
    assert claim["verdict"] == "supported" and claim["context_ids"]
    cited = grounding["contexts"][claim["context_ids"][0] - 1]
    assert cited["title"] == "Virtual environments"
    assert question.trust_score == body["trust_score"] == grounding["trust_before"] > 0
    # The call saw the claims and the contexts the answer read, and nothing was left unchecked.
    [call] = grounding_calls(llm_server)
    prompt = call["messages"][1]["content"]
    assert '<claim id="1">' in prompt and page_url("Virtual environments") in prompt


def test_an_unsupported_sentence_lowers_the_stored_trust_score(
    anon_client, python_guru, llm_server, grounding_on
):
    llm_server.add_unsupported_every = 1
    body = ask(anon_client, IN_SCOPE)
    assert UNSUPPORTED_SENTENCE in body["content"]
    question = Question.objects.get(slug=body["slug"])
    grounding = question.grounding
    assert grounding["status"] == "checked"
    verdicts = {c["text"]: c["verdict"] for c in grounding["claims"]}
    assert verdicts[UNSUPPORTED_SENTENCE] == "unsupported"
    assert list(verdicts.values()).count("supported") == 1
    assert grounding["unsupported"] == 1 and len(verdicts) == 2
    # trust * (1 - 0.5 * 1/2): one claim of two is not in the sources.
    assert body["trust_score"] == grounding["trust_before"] > 0
    assert question.trust_score == pytest.approx(round(body["trust_score"] * 0.75, 4))
    # Shown with the answer, on the question page and in the admin trace.
    page = anon_client.get(f"/api/gurus/python/questions/{question.slug}/").json()
    assert page["grounding"]["unsupported"] == 1 and page["trust_score"] == question.trust_score
    assert page["grounding"]["claims"] == grounding["claims"]
    assert_documented(page["grounding"], "GroundingOutput")
    anon_client.credentials(HTTP_AUTHORIZATION="Bearer test-admin-token")
    trace = anon_client.get(f"/api/gurus/python/questions/{question.pk}/trace/").json()
    assert trace["grounding"] == grounding


def test_a_partly_supported_claim_through_the_loopback_llm(llm_server):
    half_made_up = "Activate the virtual environment with conda before deploying kubernetes pods."
    content = f"Create a virtual environment with python -m venv myenv. {half_made_up}"
    result = asyncio.run(
        answer_grounding(content=content, contexts=[venv_context()], llm=get_llm())
    )
    assert result["status"] == "checked"
    assert [c["verdict"] for c in result["claims"]] == ["supported", "partly"]
    assert result["partly"] == 1 and result["unsupported"] == 0
    assert result["claims"][1]["context_ids"] == [1]


def test_the_check_runs_once_a_refusal_and_a_replay_are_not_checked(
    anon_client, python_guru, llm_server, grounding_on
):
    first = ask(anon_client, IN_SCOPE)
    again = ask(anon_client, IN_SCOPE)  # the same question: the saved answer is replayed
    assert again.get("cached") is True and again["slug"] == first["slug"]
    refused = ask(anon_client, OUT_OF_SCOPE)
    assert refused["refused"] is True and OutOfContextQuestion.objects.exists()
    assert len(grounding_calls(llm_server)) == 1
    # A redelivered task finds the result stored and does not lower the trust score again.
    question = Question.objects.get()
    stored = question.grounding
    assert question_grounding_task.delay(question.pk).get()["status"] == "checked"
    assert len(grounding_calls(llm_server)) == 1
    assert Question.objects.get().grounding == stored


def test_without_an_llm_nothing_is_checked(anon_client, python_guru, grounding_on, settings):
    body = ask(anon_client, IN_SCOPE)
    question = Question.objects.get(slug=body["slug"])
    assert question.extractive and question.grounding is None  # no task was sent
    result = question_grounding_check(question_id=question.pk, providers_for=providers_for)
    assert result is not None and result["status"] == "skipped" and result["reason"] == "no_llm"
    assert Question.objects.get().trust_score == body["trust_score"]


@pytest.mark.parametrize(
    "reply",
    [
        "not json at all",
        json.dumps({"verdicts": "all good"}),
        json.dumps({"verdicts": [{"claim": 7, "verdict": "supported", "contexts": [1]}]}),
        json.dumps({"verdicts": [{"claim": 1, "verdict": "maybe", "contexts": []}]}),
    ],
)
def test_an_unreadable_verdict_leaves_the_answer_unchecked(
    anon_client, python_guru, llm_server, settings, reply
):
    body = ask(anon_client, IN_SCOPE)  # the check is off: nothing ran yet
    question = Question.objects.get(slug=body["slug"])
    assert question.grounding is None
    llm_server.script(reply)
    assert question_grounding_task.delay(question.pk).get()["status"] == "unchecked"
    stored = Question.objects.get()
    assert stored.grounding["status"] == "unchecked"
    assert {c["verdict"] for c in stored.grounding["claims"]} == {"unchecked"}
    assert stored.trust_score == body["trust_score"]


def test_a_failed_call_leaves_the_answer_unchecked(anon_client, python_guru, llm_server):
    body = ask(anon_client, IN_SCOPE)
    llm_server.fail_all(400)
    question_id = Question.objects.get(slug=body["slug"]).pk
    result = question_grounding_check(question_id=question_id, providers_for=providers_for)
    assert result is not None and result["status"] == "unchecked"
    assert result["reason"] == "llm_failed"


def test_verdicts_must_label_every_claim_with_known_ids():
    claims = ["One claim here.", "Another claim there."]
    complete = {
        "verdicts": [
            {"claim": 2, "verdict": "unsupported", "contexts": [1]},
            {"claim": 1, "verdict": "partly", "contexts": [2, 9, "x", 2]},
        ]
    }
    parsed = parse_verdicts(complete, claims=claims, context_count=2)
    assert parsed == [
        {"text": "One claim here.", "verdict": "partly", "context_ids": [2]},
        {"text": "Another claim there.", "verdict": "unsupported", "context_ids": []},
    ]
    assert (
        parse_verdicts({"verdicts": complete["verdicts"][:1]}, claims=claims, context_count=2)
        is None
    )
    assert parse_verdicts(None, claims=claims, context_count=2) is None
    boolean_id = {"verdicts": [{"claim": True, "verdict": "supported", "contexts": []}]}
    assert parse_verdicts(boolean_id, claims=claims[:1], context_count=1) is None


@pytest.mark.slow
def test_a_real_worker_checks_a_saved_answer(anon_client, python_guru, llm_server, settings):
    llm_server.add_unsupported_every = 1
    body = ask(anon_client, IN_SCOPE)  # the check is off here: the worker makes it
    question_id = Question.objects.get(slug=body["slug"]).pk
    url = BROKERS["redis"]
    purge(url)
    llm = {
        "LLM_PROVIDER": "openai",
        "OPENAI_BASE_URL": settings.OPENAI_BASE_URL,
        "OPENAI_API_KEY": "test-key",
        "LLM_MODEL": "fake-gpt",
    }
    with celery_worker(url, **llm):
        client = Celery(broker=url, set_as_current=False)
        with client.connection_for_write() as conn:
            client.send_task(
                "openguru.answers.tasks.question_grounding_task",
                args=[question_id],
                queue="light",
                connection=conn,
            )
        checked = wait_until(
            lambda: Question.objects.filter(pk=question_id, grounding__isnull=False).first(),
            timeout=120,
        )
    assert checked.grounding["status"] == "checked" and checked.grounding["unsupported"] == 1
    assert checked.trust_score == pytest.approx(round(body["trust_score"] * 0.75, 4))
