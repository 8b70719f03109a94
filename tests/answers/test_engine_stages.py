"""The answer engine's branches, through its stages, on the in-memory vector store, the fake
embedder and the fake LLM: no Milvus, no HTTP (the fast lane runs them on SQLite)."""

import asyncio
import copy
import dataclasses

import pytest
from openguru.answers.engine import stages
from openguru.answers.engine.ask import AskRequest, ask
from openguru.answers.engine.pipeline import AnswerRun, Gated, Gathered
from openguru.answers.engine.providers import Providers
from openguru.answers.models import Binge, OutOfContextQuestion, Question
from openguru.providers.llm.fake import FakeLLM

from tests.answers.conftest import page_url
from tests.answers.memory_guru import answer_events, indexed_guru, memory_providers, text_of

pytestmark = [pytest.mark.fast, pytest.mark.django_db(transaction=True)]

IN_SCOPE = "How do I create a virtual environment with venv?"
OUT_OF_SCOPE = "Which Django middleware sets the CSRF cookie for templates?"


@pytest.fixture
def llm() -> FakeLLM:
    return FakeLLM(model="fake-llm")


@pytest.fixture
def providers(llm: FakeLLM) -> Providers:
    return memory_providers(llm=llm)


@pytest.fixture
def guru(providers: Providers):
    return indexed_guru(providers)


def begin(request: AskRequest, providers: Providers) -> AnswerRun:
    """A run as the engine starts one (it needs a running loop: call it inside one)."""
    return AnswerRun.begin(request, providers, mode="fast")


def test_an_in_scope_question_is_answered_and_its_trace_saved(guru, providers, llm):
    events = answer_events(AskRequest(guru=guru, question=IN_SCOPE, mode="fast"), providers)

    assert [e.name for e in events][:2] == ["meta", "delta"] and events[-1].name == "done"
    assert text_of(events) == events[-1].data["content"]
    assert events[0].data["references"][0]["link"].startswith(page_url("Virtual environments"))
    trace = Question.objects.get(pk=events[-1].data["id"]).trace
    assert (trace["decision"], trace["reason"]) == ("answered", "passed_gate")
    assert set(trace["lists"]) == {"dense0", "bm250", "fused"}
    assert trace["lists"]["fused"][0][0] == trace["kept"][0]["id"]
    assert trace["gate"] == {"setting": 0.35, "margin": 0.3}
    assert [(c["name"], c["sequential"]) for c in trace["llm_calls"]] == [
        ("answer", True),
        ("understanding", False),  # started with the first token, never waited for
    ]
    assert trace["sequential_llm_calls"] == 1
    assert trace["tokens"]["prompt"] == sum(c["prompt_tokens"] for c in trace["llm_calls"]) > 0
    assert {"prepare_ms", "retrieve_ms", "embed_ms", "search_ms", "first_token_ms"} <= set(
        trace["timings_ms"]
    )
    assert len(llm.calls) == 2


def test_default_mode_scores_relevance_with_one_llm_call(guru, providers, llm):
    events = answer_events(AskRequest(guru=guru, question=IN_SCOPE, mode="default"), providers)

    trace = Question.objects.get(pk=events[-1].data["id"]).trace
    sequential = [c["name"] for c in trace["llm_calls"] if c["sequential"]]
    assert sequential == ["relevance", "answer"]
    assert trace["sequential_llm_calls"] == 2
    assert "reranked" in trace["lists"]  # the relevance call's order


def test_a_gurus_own_answer_mode_applies_unless_the_ask_names_one(guru, providers, llm, settings):
    settings.ANSWER_MODE = "default"
    guru.answer_mode = "fast"
    guru.save(update_fields=["answer_mode"])

    def sequential_calls(mode: str) -> list[str]:
        question = f"{IN_SCOPE} ({mode or 'the guru'}'s mode)"  # not a replay of the last one
        events = answer_events(AskRequest(guru=guru, question=question, mode=mode), providers)
        trace = Question.objects.get(pk=events[-1].data["id"]).trace
        return [c["name"] for c in trace["llm_calls"] if c["sequential"]]

    assert sequential_calls("") == ["answer"]
    assert sequential_calls("default") == ["relevance", "answer"]


def test_an_out_of_scope_question_is_refused_without_an_llm_call(guru, providers, llm):
    events = answer_events(AskRequest(guru=guru, question=OUT_OF_SCOPE, mode="fast"), providers)

    assert [e.name for e in events] == ["meta", "delta", "done"]
    assert events[0].data["refused"] is True and "don't know" in text_of(events)
    assert llm.calls == []
    assert not Question.objects.exists()
    trace = OutOfContextQuestion.objects.get(user_question=OUT_OF_SCOPE).trace
    assert (trace["decision"], trace["refused_because"]) == ("refused", "low_relevance")
    assert trace["best"] < trace["threshold"]
    assert trace["llm_calls"] == [] and trace["sequential_llm_calls"] == 0


def test_a_question_understanding_judges_off_topic_is_refused(guru, providers):
    # Default mode sends understanding while retrieval runs; the fake answers at once, so its
    # verdict is in by the gate. Its first JSON answer is understanding's, the next relevance's.
    llm = FakeLLM(json_responses=[{"valid": False}, {"scores": [1.0]}])
    providers = Providers(embedder=providers.embedder, store=providers.store, llm=llm)

    events = answer_events(AskRequest(guru=guru, question=IN_SCOPE, mode="default"), providers)

    assert events[0].data["refused"] is True
    trace = OutOfContextQuestion.objects.get().trace
    assert trace["refused_because"] == "not_valid"
    assert trace["understanding_ready"] is True
    assert [c["name"] for c in trace["llm_calls"]] == ["relevance", "understanding"]


def test_the_gate_refuses_what_falls_below_its_threshold(guru, providers):
    async def gated() -> tuple[Gated, AnswerRun]:
        run = begin(AskRequest(guru=guru, question=IN_SCOPE), providers)
        try:
            gathered = await stages.reuse_or_retrieve(run)
            assert gathered.reused is None
            strict = copy.copy(gathered.work.platform)  # the cached settings row stays as it was
            strict.trust_score_threshold = 0.99
            return stages.gate(run, dataclasses.replace(gathered.work, platform=strict)), run
        finally:
            run.close()

    gate, run = asyncio.run(gated())

    assert gate.passed is False
    assert gate.decision.kept == []
    assert gate.decision.best > 0.35  # it would pass the default threshold
    assert run.trace.data["threshold"] == 0.99


def test_the_same_question_again_is_replayed_without_a_search(guru, providers, llm):
    first = answer_events(AskRequest(guru=guru, question=IN_SCOPE, mode="fast"), providers)
    calls = len(llm.calls)

    async def reuse() -> Gathered:
        run = begin(AskRequest(guru=guru, question=IN_SCOPE), providers)
        try:
            return await stages.reuse_or_retrieve(run)
        finally:
            run.close()

    gathered = asyncio.run(reuse())

    assert gathered.reused is not None and gathered.reused.pk == first[-1].data["id"]
    assert gathered.work.retrieval is None  # nothing was searched
    again = answer_events(AskRequest(guru=guru, question=IN_SCOPE, mode="fast"), providers)
    assert again[0].data["cached"] is True and again[-1].data["cached"] is True
    assert text_of(again) == text_of(first)
    assert len(llm.calls) == calls
    assert Question.objects.count() == 1


def test_a_reworded_question_is_replayed_after_retrieval(guru, providers, llm):
    answer_events(AskRequest(guru=guru, question=IN_SCOPE, mode="fast"), providers)

    async def reuse() -> Gathered:
        reworded = "With venv, how do I create a virtual environment?"
        run = begin(AskRequest(guru=guru, question=reworded), providers)
        try:
            return await stages.reuse_or_retrieve(run)
        finally:
            run.close()

    gathered = asyncio.run(reuse())

    assert gathered.reused is not None and gathered.reused.user_question == IN_SCOPE
    assert gathered.work.retrieval is not None  # found beside the search


def test_a_follow_up_searches_and_prompts_with_the_conversation(guru, providers, llm):
    root_events = answer_events(AskRequest(guru=guru, question=IN_SCOPE, mode="fast"), providers)
    root = Question.objects.get(pk=root_events[-1].data["id"])
    binge = Binge.objects.create(guru=guru, root_question=root)
    follow_up = "How do I activate the virtual environment afterwards?"

    events = answer_events(
        AskRequest(guru=guru, question=follow_up, mode="fast", binge=binge, parent=root),
        providers,
    )

    child = Question.objects.get(pk=events[-1].data["id"])
    assert child.binge_id == binge.pk and child.parent_id == root.pk
    assert child.trace["queries"] == [follow_up, f"{root.question} {follow_up}"]
    answer_prompt = llm.calls[-2][0].content  # the answer's; the last call is understanding's
    assert "follow-up" in answer_prompt and root.question in answer_prompt


def test_a_clients_own_history_is_the_prompts_conversation(guru, providers, llm):
    binge = Binge.objects.create(guru=guru)
    earlier = ("What is a list comprehension?", "A compact way to build a list.")

    answer_events(
        AskRequest(guru=guru, question=IN_SCOPE, mode="fast", binge=binge, history=(earlier,)),
        providers,
    )

    answer_prompt = llm.calls[0][0].content
    assert earlier[0] in answer_prompt and earlier[1] in answer_prompt


def test_a_guru_indexed_with_another_model_gets_an_error_event(guru, providers, llm):
    guru.embedding_model = "another-model"

    events = answer_events(AskRequest(guru=guru, question=IN_SCOPE), providers)

    assert [(e.name, e.data["code"]) for e in events] == [("error", "not_configured")]
    assert llm.calls == []


def test_closing_the_stream_after_the_first_token_cleans_up(guru, providers):
    async def first_token_then_close() -> list[asyncio.Task]:
        stream = ask(AskRequest(guru=guru, question=IN_SCOPE, mode="fast"), providers)
        async for event in stream:
            if event.name == "delta":
                break
        await stream.aclose()
        await asyncio.sleep(0.01)  # let a cancellation finish
        return [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]

    assert asyncio.run(first_token_then_close()) == []
    assert not Question.objects.exists()
