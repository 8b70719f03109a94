"""`manage.py eval --engine-answers N` with the grounding check on: the loopback LLM adds a
sentence no source says to every second answer, and the report counts those answers flagged."""

from pathlib import Path

import pytest
from openguru.answers.models import Question

from tests.evaluation.test_eval_command import run_eval, write_out_of_scope, write_tiny_dataset
from tests.fakes.grounding_judge import UNSUPPORTED_SENTENCE

pytestmark = pytest.mark.django_db(transaction=True)


def test_engine_answers_count_the_answers_flagged(tmp_path: Path, llm_server, settings) -> None:
    settings.ANSWER_MODE = "fast"
    settings.ANSWER_GROUNDING = True
    llm_server.add_unsupported_every = 2
    dataset = write_tiny_dataset(tmp_path / "tinyset")
    outside = write_out_of_scope(tmp_path / "elsewhere")
    args = ["--dataset", str(dataset), "--out-of-scope", str(outside), "--mode", "hybrid"]

    report = run_eval(tmp_path / "reports", *args, "--engine-answers", "2")

    [record] = report["engine_answers"]
    assert record["answered"] == 1.0 and record["errors"] == 0
    # Two answers of one sentence each; the second also says what no source does.
    assert record["grounding"] == {
        "checked": 2,
        "flagged": 1,
        "unchecked": 0,
        "claims": 3,
        "unsupported_claims": 1,
        "partly_claims": 0,
    }
    flagged = [q for q in Question.objects.all() if q.grounding["unsupported"]]
    assert [UNSUPPORTED_SENTENCE in q.content for q in flagged] == [True]
    markdown = (tmp_path / "reports" / "eval.md").read_text()
    assert "* tinyset: 1 of 2 checked answers flagged; 1 unsupported and 0 partly" in markdown


def test_without_the_check_the_report_has_no_grounding(tmp_path: Path, llm_server, settings):
    settings.ANSWER_MODE = "fast"
    dataset = write_tiny_dataset(tmp_path / "tinyset")
    outside = write_out_of_scope(tmp_path / "elsewhere")
    args = ["--dataset", str(dataset), "--out-of-scope", str(outside), "--mode", "hybrid"]
    [record] = run_eval(tmp_path / "reports", *args, "--engine-answers", "2")["engine_answers"]
    assert "grounding" not in record
    assert not Question.objects.filter(grounding__isnull=False).exists()
