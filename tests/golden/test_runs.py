"""A golden run follows every re-index: recall@5 and the refusal rate of the guru's set, measured
with the answers' own retrieval and gate on Milvus Lite, and flagged when a re-index broke it."""

import logging

from openguru.evaluation.golden_measure import regression_reason
from openguru.evaluation.models import GoldenRun

from tests.answers.conftest import PAGES
from tests.golden.conftest import (
    BROKEN_PAGE,
    BROKEN_TITLE,
    QUESTIONS,
    SLUG,
    add_golden_set,
    reindex_with,
    source_titled,
)

RUNS = f"/api/gurus/{SLUG}/golden/runs/"


def _page(title: str) -> str:
    return f"# {title}\n\n{PAGES[title]}\n"


def test_a_reindex_runs_the_golden_set_with_the_answers_retrieval_and_gate(golden_guru):
    pairs = add_golden_set(golden_guru)
    assert not GoldenRun.objects.exists()  # adding pairs runs nothing by itself

    exceptions = reindex_with(source_titled(golden_guru, "Exceptions"), _page("Exceptions"))

    run = GoldenRun.objects.get()
    assert run.status == GoldenRun.Status.DONE
    assert run.trigger_source_id == exceptions.pk
    assert (run.pairs, run.recall_at_5, run.refusal_rate) == (3, 1.0, 0.0)
    assert not run.flagged and run.finished_at is not None
    by_pair = {d["pair_id"]: d for d in run.details}
    for pair in pairs:
        detail = by_pair[pair.pk]
        assert detail["found_rank"] == 1, detail
        assert detail["refused"] is False
        assert detail["top"][0]["source_id"] == pair.expected_source_id
        assert len(detail["top"]) == 5  # nine pages: only five of them are passages here


def test_a_broken_reindex_lowers_recall_and_is_flagged(golden_guru, caplog):
    add_golden_set(golden_guru)
    venv = source_titled(golden_guru, "Virtual environments")
    reindex_with(venv, _page("Virtual environments"))  # the baseline run

    with caplog.at_level(logging.WARNING, logger="openguru.evaluation.golden"):
        reindex_with(venv, BROKEN_PAGE, BROKEN_TITLE)

    baseline, broken = GoldenRun.objects.order_by("pk")
    assert (baseline.recall_at_5, baseline.flagged) == (1.0, False)
    assert broken.trigger_source_id == venv.pk
    assert broken.recall_at_5 == round(2 / 3, 4)
    assert broken.refusal_rate >= baseline.refusal_rate
    lost = next(d for d in broken.details if d["expected_source_id"] == venv.pk)
    assert lost["found_rank"] is None
    assert venv.pk not in [passage["source_id"] for passage in lost["top"]]
    assert broken.flagged
    assert "recall@5 fell from 1.00 to 0.67" in broken.flag_reason
    assert QUESTIONS["Virtual environments"] in broken.flag_reason
    assert broken.flag_reason in caplog.text

    reindex_with(venv, _page("Virtual environments"), "Virtual environments")  # fixed
    fixed = GoldenRun.objects.order_by("pk").last()
    assert (fixed.recall_at_5, fixed.flagged, fixed.flag_reason) == (1.0, False, "")


def test_a_drop_within_the_margin_is_not_flagged(golden_guru, settings):
    settings.GOLDEN_RECALL_DROP_MARGIN = 0.5
    settings.GOLDEN_REFUSAL_RISE_MARGIN = 0.5
    add_golden_set(golden_guru)
    venv = source_titled(golden_guru, "Virtual environments")
    reindex_with(venv, _page("Virtual environments"))
    reindex_with(venv, BROKEN_PAGE, BROKEN_TITLE)

    broken = GoldenRun.objects.order_by("pk").last()
    assert broken.recall_at_5 == round(2 / 3, 4)
    assert not broken.flagged


def test_the_history_is_newest_first_and_paginated(golden_guru, admin_client):
    add_golden_set(golden_guru)
    venv = source_titled(golden_guru, "Virtual environments")
    reindex_with(venv, _page("Virtual environments"))
    reindex_with(venv, BROKEN_PAGE, BROKEN_TITLE)

    page = admin_client.get(RUNS, {"page_size": 1}).json()
    assert page["count"] == 2 and page["next"] and page["previous"] is None
    newest = page["results"][0]
    assert (newest["recall_at_5"], newest["flagged"]) == (round(2 / 3, 4), True)
    assert newest["trigger_source_id"] == venv.pk
    assert {d["question"] for d in newest["details"]} == set(QUESTIONS.values())
    older = admin_client.get(RUNS, {"page_size": 1, "page": 2}).json()["results"][0]
    assert older["id"] < newest["id"] and older["flagged"] is False


def test_run_now_through_the_api(golden_guru, admin_client):
    assert admin_client.post(RUNS).json()["code"] == "invalid_input"  # no pairs yet

    add_golden_set(golden_guru)
    response = admin_client.post(RUNS)

    assert response.status_code == 202
    body = response.json()
    assert (body["status"], body["trigger_source_id"], body["pairs"]) == ("done", None, 3)
    assert body["recall_at_5"] == 1.0


def test_the_reason_compares_only_the_questions_both_runs_asked():
    def detail(pair_id: int, found: bool, refused: bool = False) -> dict:
        return {
            "pair_id": pair_id,
            "question": f"q{pair_id}",
            "found_rank": 1 if found else None,
            "refused": refused,
        }

    before = [detail(1, True), detail(2, True)]
    # A new pair nobody answers yet is no regression of the old ones.
    assert (
        regression_reason(
            before, [*before, detail(3, False, True)], recall_margin=0.1, refusal_margin=0.1
        )
        == ""
    )
    reason = regression_reason(
        before, [detail(1, True), detail(2, False, True)], recall_margin=0.1, refusal_margin=0.1
    )
    assert reason == (
        'recall@5 fell from 1.00 to 0.50 (margin 0.10); no longer found: "q2"; '
        "refusal rate rose from 0.00 to 0.50 (margin 0.10) over the 2 questions both runs asked"
    )
