"""`manage.py eval --engine-answers N`: questions asked through the answer engine itself, with
the loopback OpenAI-compatible LLM, on a tiny dataset; answers and refusals scored."""

from pathlib import Path

import pytest
from openguru.answers.models import Question
from openguru.evaluation.datasets import ReferenceAnswer
from openguru.evaluation.engine_answers import EngineAnswer, answer_score

from tests.answers.conftest import stream_calls
from tests.evaluation.test_eval_command import run_eval, write_out_of_scope, write_tiny_dataset

pytestmark = pytest.mark.django_db(transaction=True)


def _answer(content: str, *, refused: bool = False, error: str = "") -> EngineAnswer:
    return EngineAnswer(refused, content, error, extractive=False, first_text_ms=1.0)


def test_a_span_counts_in_the_answer_text_with_links_reduced_to_titles():
    reference = ReferenceAnswer(spans=("Bonn",))
    assert answer_score(_answer("It flows to [Bonn](https://x.example/bonn)."), reference) == 1.0
    assert answer_score(_answer("It flows to [Cologne](https://x.example/bonn)."), reference) == 0
    assert answer_score(_answer("Bonn", refused=True), reference) == 0.0
    assert answer_score(_answer("Bonn", error="provider_error"), reference) == 0.0


def test_prose_scores_token_f1():
    reference = ReferenceAnswer(prose="Use the venv module.")
    assert answer_score(_answer("Use the venv module"), reference) == 1.0
    assert 0 < answer_score(_answer("Use venv, or virtualenv."), reference) < 1


def test_engine_answers_with_the_llm(tmp_path: Path, llm_server, settings) -> None:
    settings.ANSWER_MODE = "fast"  # one LLM call per answered question: countable
    dataset = write_tiny_dataset(tmp_path / "tinyset")
    outside = write_out_of_scope(tmp_path / "elsewhere")
    args = ["--dataset", str(dataset), "--out-of-scope", str(outside), "--mode", "hybrid"]

    report = run_eval(tmp_path / "reports", *args, "--engine-answers", "2")

    [record] = report["engine_answers"]
    assert record["dataset"] == "tinyset"
    assert record["answerer"] == "llm"
    assert record["questions"] == 2  # q0 (gold strings) and q1 (a written answer)
    assert record["answered"] == 1.0 and record["errors"] == 0
    # The model quotes the first context's first sentence and cites it: q0's gold string is in
    # it; q1's answer is its reference plus the citation ("[[1]](link)", one token once SQuAD's
    # normalisation drops punctuation), F1 2 · 4/5 · 1 / (4/5 + 1) -> 0.8889.
    assert record["hit"] == 1.0 and record["f1"] == 0.8889
    # The tiny set marks its own unanswerable questions; those are what it must refuse.
    assert record["out_of_scope"] == "tinyset (unanswerable)"
    assert record["out_of_scope_questions"] == 2
    # Made-up words no document holds: the gate refuses both, without an answer call.
    assert record["refused_out_of_scope"] == 1.0
    assert record["first_text_ms_p50"] > 0
    # From the stored decision traces: each answer made its answer and understanding calls.
    assert record["decisions"] == {"answered/passed_gate": 2, "refused/low_relevance": 2}
    assert record["llm_calls_mean"] == 1.0 and record["sequential_llm_calls_mean"] == 0.5
    assert record["prompt_tokens_mean"] > 0
    answered = 2
    assert len(stream_calls(llm_server)) == answered
    markdown = (tmp_path / "reports" / "eval.md").read_text()
    assert "## Answers through the answer engine" in markdown
    assert "tinyset: answered/passed_gate 2, refused/low_relevance 2" in markdown

    # A rerun answers anew: the answer cache of the evaluation guru is emptied first.
    llm_server.reset()
    again = run_eval(tmp_path / "reports2", *args, "--engine-answers", "2", "--drop-gurus")
    [rerun] = again["engine_answers"]
    timing = "first_text_ms_p50"
    assert {**rerun, timing: 0} == {**record, timing: 0}
    assert len(stream_calls(llm_server)) == answered
    assert not Question.objects.exists()


def test_engine_answers_without_an_llm_are_extractive(tmp_path: Path) -> None:
    dataset = write_tiny_dataset(tmp_path / "tinyset")
    report = run_eval(
        tmp_path / "reports",
        *("--dataset", str(dataset), "--mode", "hybrid", "--engine-answers", "1", "--drop-gurus"),
    )
    [record] = report["engine_answers"]
    assert record["answerer"] == "extractive"
    assert record["questions"] == 1 and record["hit"] == 1.0
