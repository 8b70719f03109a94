"""The question pool: topics from heading paths, and the greedy near-duplicate filter."""

import numpy as np
import pytest
from benchmarks.collection import evenly_spaced
from benchmarks.questions import (
    TEMPLATES,
    DistinctFilter,
    QuestionSupply,
    candidate_questions,
    topics_from_headings,
)


def test_topics_are_last_headings_without_numbering_or_repeats() -> None:
    paths = [
        "The Python Tutorial > 4. More Control Flow Tools > 4.7. Defining Functions",
        "The Python Tutorial > 4. More Control Flow Tools > 4.7. Defining functions",
        "Programming FAQ > General Questions",
        "Glossary > Footnotes",
        "8. Compound statements > 8.4.3. finally clause",
        "Extending > A. The Module Table",
        "",
    ]
    assert topics_from_headings(paths) == [
        "Defining Functions",
        "General Questions",
        "finally clause",
        "The Module Table",
    ]


def test_candidates_go_template_by_template() -> None:
    questions = list(candidate_questions(["decorators", "generators"]))
    assert len(questions) == 2 * len(TEMPLATES)
    assert questions[0] == TEMPLATES[0].format(topic="decorators")
    assert questions[1] == TEMPLATES[0].format(topic="generators")


def test_distinct_filter_rejects_near_duplicates_and_keeps_the_rest() -> None:
    keep = DistinctFilter(dimension=3, max_similarity=0.9, capacity=10)
    assert keep.accept(np.array([1.0, 0.0, 0.0]))
    assert not keep.accept(np.array([10.0, 1.0, 0.0]))  # cosine 0.995 to the first
    assert keep.accept(np.array([1.0, 1.0, 0.0]))  # cosine 0.707
    assert keep.accept(np.array([0.0, 0.0, 2.0]))
    assert keep.count == 3


def test_distinct_filter_stops_at_capacity() -> None:
    keep = DistinctFilter(dimension=2, max_similarity=0.99, capacity=1)
    assert keep.accept(np.array([1.0, 0.0]))
    assert not keep.accept(np.array([0.0, 1.0]))


def test_supply_hands_out_each_question_once() -> None:
    supply = QuestionSupply(["a", "b", "c"])
    assert supply.take(2) == ["a", "b"]
    assert supply.left == 1
    with pytest.raises(RuntimeError, match="only 1 left"):
        supply.take(2)
    assert supply.take(1) == ["c"]


def test_evenly_spaced_sample_covers_the_whole_list() -> None:
    items = [str(i) for i in range(10)]
    assert evenly_spaced(items, 5) == ["0", "2", "4", "6", "8"]
    assert evenly_spaced(items, 20) == items
