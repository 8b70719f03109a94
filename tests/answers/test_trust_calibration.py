"""A guru's own trust threshold: the headings that stand in for its questions, the percentile
that sets it, where the gate uses it, and the service on a guru in the in-memory store."""

import asyncio

import pytest
from openguru.answers.engine import stages
from openguru.answers.engine.ask import AskRequest
from openguru.answers.engine.fusion import Candidate
from openguru.answers.engine.gate import gate_score, guru_threshold
from openguru.answers.engine.pipeline import AnswerRun, Gated, Gathered
from openguru.answers.quality.calibration import (
    MIN_QUESTIONS,
    calibrated_threshold,
    guru_trust_calibrate,
    heading_questions,
    heading_scores,
)
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.base import SearchHit

from tests.answers.conftest import PAGES
from tests.answers.memory_guru import indexed_guru, memory_providers

pytestmark = pytest.mark.fast


def hit(index: int, *, heading: str = "", title: str = "", link: str = "") -> SearchHit:
    metadata = {"heading_path": heading, "title": title, "doc_link": link or f"doc{index}"}
    return SearchHit(
        id=f"c{index:03d}",
        text=f"chunk {index}",
        source_id=1,
        chunk_hash=f"h{index}",
        type="text",
        metadata=metadata,
        score=0.0,
    )


def test_a_heading_paths_last_part_is_the_question_asked_once():
    hits = [
        hit(0, heading="Library > json > Encoders", link="json"),
        hit(1, heading="Library > json > Encoders", link="json"),  # a second chunk of it
        hit(2, title="Tutorial", link="tutorial"),  # no heading: the document title
        hit(3, link="empty"),  # neither: nothing to ask
    ]
    assert heading_questions(hits, limit=10) == ["Encoders", "Tutorial"]


def test_headings_are_sampled_evenly_across_the_corpus():
    hits = [hit(i, heading=f"Section {i:03d}") for i in range(100)]
    assert heading_questions(hits, limit=4) == [
        "Section 000",
        "Section 025",
        "Section 050",
        "Section 075",
    ]


def test_the_threshold_is_a_low_percentile_of_the_heading_scores():
    scores = [i / 100 for i in range(100)]
    assert calibrated_threshold(scores, percentile=10.0) == pytest.approx(0.099)
    assert calibrated_threshold(scores[: MIN_QUESTIONS - 1], percentile=10.0) is None


def test_the_gate_score_is_the_best_relevance():
    def candidate(cosine: float) -> Candidate:
        return Candidate(hit=hit(int(cosine * 100)), dense=cosine)

    assert gate_score([candidate(0.2), candidate(0.6), candidate(0.4)]) == 0.6
    assert gate_score([]) == 0.0


def test_a_calibrated_guru_is_gated_at_its_own_threshold_unless_an_llm_scores_relevance():
    calibrated, plain = Guru(calibrated_trust_threshold=0.47), Guru()
    assert guru_threshold(calibrated, setting=0.35) == 0.47
    assert guru_threshold(plain, setting=0.35) == 0.35
    # An LLM's relevance scores are on another scale than the one calibrated.
    assert guru_threshold(calibrated, setting=0.35, retrieval_relevance=False) == 0.35


def test_a_maintainers_threshold_wins_over_the_calibrated_one_and_the_default():
    chosen = Guru(trust_threshold=0.6, calibrated_trust_threshold=0.47)
    assert guru_threshold(chosen, setting=0.35) == 0.6
    assert guru_threshold(chosen, setting=0.35, retrieval_relevance=False) == 0.6


@pytest.mark.django_db(transaction=True)
def test_every_heading_is_scored_without_the_chunks_under_it():
    providers = memory_providers()
    guru = indexed_guru(providers)

    scores = heading_scores(
        guru=guru, embedder=providers.embedder, store=providers.store, reranker=None
    )

    assert len(scores) == len(PAGES)  # one heading per page
    assert all(0.0 <= score < 1.0 for score in scores)  # its own section, the best match, left out


@pytest.mark.django_db(transaction=True)
def test_a_guru_with_too_few_headings_keeps_the_deployment_setting():
    providers = memory_providers()
    guru = indexed_guru(providers)
    Guru.objects.filter(pk=guru.pk).update(calibrated_trust_threshold=0.9)  # from a bigger corpus

    threshold = guru_trust_calibrate(
        guru=guru, embedder=providers.embedder, store=providers.store, reranker=None
    )

    assert len(PAGES) < MIN_QUESTIONS and threshold is None
    guru.refresh_from_db()
    assert guru.calibrated_trust_threshold is None


@pytest.mark.django_db(transaction=True)
def test_the_answer_gate_applies_the_gurus_calibrated_threshold():
    providers = memory_providers()
    guru = indexed_guru(providers)
    guru.calibrated_trust_threshold = 0.99

    async def gated() -> tuple[Gathered, Gated, AnswerRun]:
        request = AskRequest(guru=guru, question="How do I create a virtual environment?")
        run = AnswerRun.begin(request, providers, mode="fast")
        try:
            gathered = await stages.reuse_or_retrieve(run)
            assert gathered.reused is None
            return gathered, stages.gate(run, gathered.work), run
        finally:
            run.close()

    gathered, gate, run = asyncio.run(gated())

    assert not gate.passed and not gate.decision.passed
    assert (
        gate.decision.best > gathered.work.platform.trust_score_threshold
    )  # the setting passes it
    assert run.trace.data["threshold"] == 0.99
