"""The trust gate's cut and trust score, and how kept chunks become contexts: plain functions,
checked on hand-made candidates."""

import pytest
from openguru.answers.engine.context import build_contexts
from openguru.answers.engine.fusion import Candidate
from openguru.answers.engine.gate import trust_gate
from openguru.providers.vectorstore.base import SearchHit

pytestmark = pytest.mark.fast


def candidate(
    relevance: float,
    *,
    source: int = 1,
    link: str = "https://d.example/a",
    index: int = 0,
    kind: str = "text",
) -> Candidate:
    hit = SearchHit(
        id=f"{source}-{link}-{index}",
        text=f"chunk {index} of {link}",
        source_id=source,
        chunk_hash=f"h{source}{index}{link}",
        type=kind,
        metadata={"link": link, "title": link.rsplit("/", 1)[-1], "chunk_index": index},
        score=relevance,
    )
    return Candidate(hit=hit, dense=relevance)


def test_the_cut_is_relative_to_the_best_hit_when_that_is_above_the_floor():
    kept = [candidate(0.9, index=0), candidate(0.7, index=1)]
    dropped = [candidate(0.5, index=2), candidate(0.2, index=3)]
    decision = trust_gate(dropped + kept, threshold=0.35, margin=0.3, max_keep=9)
    assert decision.threshold == pytest.approx(0.6)  # max(0.35, 0.9 - 0.3)
    assert [c.relevance for c in decision.kept] == [0.9, 0.7]
    assert decision.trust_score == pytest.approx(0.8)  # the mean of what was kept
    assert {c.hit.id for c in decision.dropped} == {c.hit.id for c in dropped}


def test_a_weak_best_hit_meets_the_absolute_floor():
    decision = trust_gate(
        [candidate(0.4, index=0), candidate(0.36, index=1), candidate(0.1, index=2)],
        threshold=0.35,
        margin=0.3,
        max_keep=9,
    )
    assert decision.threshold == 0.35 and len(decision.kept) == 2


def test_nothing_above_the_floor_is_a_refusal():
    decision = trust_gate(
        [candidate(0.3), candidate(0.1, index=1)], threshold=0.35, margin=0.3, max_keep=9
    )
    assert not decision.passed and decision.trust_score == 0.0 and decision.best == 0.3


def test_at_most_max_keep_are_kept():
    decision = trust_gate(
        [candidate(0.9, index=i) for i in range(5)], threshold=0.35, margin=0.3, max_keep=3
    )
    assert len(decision.kept) == 3 and len(decision.dropped) == 2


def test_chunks_of_one_page_merge_into_one_context_in_reading_order():
    contexts = build_contexts(
        [
            candidate(0.8, index=2),
            candidate(0.9, index=1),
            candidate(0.7, link="https://d.example/b"),
        ],
        max_text=5,
        max_code=2,
    )
    assert [c.link for c in contexts] == ["https://d.example/a", "https://d.example/b"]
    first = contexts[0]
    assert first.relevance == 0.9  # the best of its chunks
    assert first.text.index("chunk 1") < first.text.index("chunk 2")  # position, not score


def test_top_n_text_and_m_code_contexts_are_kept():
    texts = [candidate(0.9 - i / 100, link=f"https://d.example/t{i}") for i in range(4)]
    code = [
        candidate(0.8 - i / 100, source=2, link=f"https://git.example/c{i}", kind="code")
        for i in range(3)
    ]
    contexts = build_contexts(texts + code, max_text=2, max_code=1)
    assert [c.link for c in contexts] == [
        "https://d.example/t0",
        "https://d.example/t1",
        "https://git.example/c0",
    ]
