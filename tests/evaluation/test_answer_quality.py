"""Scoring an extractive answer's quotes against a reference answer."""

import pytest
from openguru.evaluation.answer_quality import (
    answer_record,
    contains_span,
    normalize,
    score_quotes,
    token_f1,
)
from openguru.evaluation.datasets import ReferenceAnswer

SPANS = ReferenceAnswer(spans=("October 1973", "1973"))
PROSE = ReferenceAnswer(prose="Use shutil.rmtree to delete a directory tree.")


def test_normalize_is_squads():
    assert normalize("The  Oil-Crisis, of 1973!") == "oilcrisis of 1973"
    assert normalize("An apple a day") == "apple day"


def test_a_span_counts_as_whole_words_only():
    assert contains_span("It began in October 1973.", ["october 1973"])
    assert not contains_span("In 19735 nothing happened.", ["1973"])
    assert not contains_span("anything", ["", "  "])


def test_token_f1():
    assert token_f1("delete a directory tree", "delete the directory tree") == 1.0
    assert token_f1("nothing in common", "delete tree") == 0.0
    # 2 shared tokens: precision 2/4, recall 2/2
    assert token_f1("rmtree deletes trees quickly", "rmtree deletes") == pytest.approx(2 / 3)


def test_spans_are_scored_by_hits_at_each_cutoff():
    quotes = ["Prices rose.", "Oil was scarce.", "It began in October 1973.", "x", "y"]
    assert score_quotes(quotes, SPANS) == {"hit@1": 0.0, "hit@3": 1.0, "hit@5": 1.0}


def test_prose_is_scored_by_f1_at_each_cutoff():
    quotes = ["Use shutil.rmtree to delete a directory tree.", "Unrelated words here."]
    scores = score_quotes(quotes, PROSE)
    assert scores["f1@1"] == 1.0
    assert 0.0 < scores["f1@3"] == scores["f1@5"] < 1.0


@pytest.mark.parametrize("reference", [SPANS, PROSE])
def test_a_refused_question_scores_zero(reference):
    assert set(score_quotes(None, reference).values()) == {0.0}
    assert set(score_quotes([], reference).values()) == {0.0}


def test_the_record_averages_each_metric_over_the_questions_that_have_it():
    scored = [
        (True, {"hit@1": 1.0, "hit@3": 1.0, "hit@5": 1.0}),
        (False, {"hit@1": 0.0, "hit@3": 0.0, "hit@5": 0.0}),
        (True, {"f1@1": 0.5, "f1@3": 0.25, "f1@5": 0.2}),
    ]
    record = answer_record(dataset="d", scored=scored)
    assert record == {
        "dataset": "d",
        "answerer": "extractive",
        "questions": 3,
        "answered": 0.6667,
        "hit@1": 0.5,
        "hit@3": 0.5,
        "hit@5": 0.5,
        "f1@1": 0.5,
        "f1@3": 0.25,
        "f1@5": 0.2,
    }
    assert answer_record(dataset="d", scored=[])["answered"] == 0.0
