"""`manage.py eval` end to end: tiny BEIR folders written to a temporary directory (outside the
repository), the fake embedder, the real Milvus Lite server and the real database."""

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from config.env import REPO_DIR
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test.utils import override_settings
from openguru.evaluation.refusal import THRESHOLDS
from openguru.evaluation.vector_server import answers, milvus_for_eval
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.providers.vectorstore.lite_server import free_port

pytestmark = pytest.mark.django_db(transaction=True)

# Made-up words: each document owns two, so a question made of them has exactly one answer.
WORDS = [
    "zorblax",
    "quintavel",
    "mirthwick",
    "plondery",
    "saffrex",
    "tumbleco",
    "vardinth",
    "oskelume",
    "brisquat",
    "fennowin",
    "glarrup",
    "hestovine",
    "jaxomere",
    "kettlorn",
    "lumbrisa",
]
OTHER_WORDS = ["drozzle", "wumpkin", "yarbleth", "cuxtaro", "nibbleroot"]
FILLER = "This record is part of a small test corpus with shared filler words."
METRIC_KEYS = {"ndcg@10", "recall@1", "recall@5", "recall@10", "recall@100", "mrr@10"}
RECORD_KEYS = {
    "dataset",
    "mode",
    "level",
    "settings",
    "queries",
    "skipped_queries",
} | METRIC_KEYS
REFUSAL_KEYS = {
    "corpus",
    "out_of_scope",
    "refused_out_of_scope",
    "refused_in_scope",
    "threshold",
}


def _jsonl(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def _tsv(path: Path, rows: list[tuple[str, str]]) -> None:
    lines = ["query-id\tcorpus-id\tscore"] + [f"{q}\t{d}\t1" for q, d in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_tiny_dataset(folder: Path, words: tuple[str, ...] | list[str] = WORDS) -> Path:
    """One document per word pair (14 + 1 docs), in pages of three; questions 0-5 have gold."""
    folder.mkdir(parents=True)
    docs = []
    for i in range(len(words)):
        first, second = words[i], words[(i + 1) % len(words)]
        docs.append(
            {
                "_id": f"doc{i}",
                "title": f"Entry {i}",
                "text": f"The {first} meets the {second} here. {FILLER}",
                "page": f"page{i // 3}",
            }
        )
    _jsonl(folder / "corpus.jsonl", docs)
    questions = [
        {"_id": f"q{i}", "text": f"{words[i]} {words[(i + 1) % len(words)]}"} for i in range(6)
    ]
    questions.append({"_id": "q-no-gold", "text": f"{words[7]} alone"})
    questions.append({"_id": "q-impossible", "text": f"{OTHER_WORDS[0]} {OTHER_WORDS[1]}"})
    # Alike to the fake embedder (a bag of words): one is the same question, one is not.
    questions.append({"_id": "q-again", "text": f"The {OTHER_WORDS[0]} {OTHER_WORDS[1]}?"})
    questions.append({"_id": "q-swapped", "text": f"{OTHER_WORDS[1]} {OTHER_WORDS[0]}"})
    _jsonl(folder / "queries.jsonl", questions)
    _tsv(folder / "qrels.tsv", [(f"q{i}", f"doc{i}") for i in range(6)])
    _tsv(folder / "qrels_page.tsv", [(f"q{i}", f"page{i // 3}") for i in range(6)])
    answers = [
        {"_id": "q0", "answers": [f"{words[0]} meets the {words[1]}"]},  # SQuAD-like spans
        {"_id": "q1", "answer": f"The {words[1]} meets the {words[2]} here."},  # an FAQ's prose
        {"_id": "q-impossible", "is_impossible": True},
        {"_id": "q-again", "is_impossible": True},
        {"_id": "q-swapped", "is_impossible": True},
    ]
    _jsonl(folder / "answers.jsonl", answers)
    return folder


def write_out_of_scope(folder: Path) -> Path:
    folder.mkdir(parents=True)
    _jsonl(folder / "corpus.jsonl", [{"_id": "x", "title": "x", "text": "unrelated text"}])
    _jsonl(
        folder / "queries.jsonl",
        [{"_id": f"o{i}", "text": f"{w} {OTHER_WORDS[-1]}"} for i, w in enumerate(OTHER_WORDS)],
    )
    _tsv(folder / "qrels.tsv", [])
    return folder


def run_eval(reports: Path, *args: str) -> dict[str, Any]:
    if "--small-gurus" not in args:  # measured by tests/evaluation/test_small_gurus.py
        args = (*args, "--small-gurus", "none")
    call_command("eval", "--reports-dir", str(reports), *args)
    return json.loads((reports / "eval.json").read_text())


def _by(records: list[dict[str, Any]], mode: str, level: str) -> dict[str, Any]:
    return next(r for r in records if r["mode"] == mode and r["level"] == level)


def _delete_eval_gurus() -> None:
    from openguru.gurus.services import guru_delete

    for guru in Guru.objects.filter(slug__startswith="eval-"):
        guru_delete(guru=guru, store=get_vector_store())


def test_eval_on_a_folder_outside_the_repository(tmp_path: Path) -> None:
    dataset = write_tiny_dataset(tmp_path / "tinyset")
    outside = write_out_of_scope(tmp_path / "elsewhere")
    assert not dataset.resolve().is_relative_to(REPO_DIR)

    report = run_eval(
        tmp_path / "reports",
        "--dataset",
        str(dataset),
        "--out-of-scope",
        str(outside),
        "--drop-gurus",
    )

    assert set(report) == {
        "commit",
        "records",
        "refusal",
        "refusal_summary",
        "answers",
        "near_duplicates",
        "engine_answers",
        "comparisons",
        "small_gurus",
    }
    assert report["engine_answers"] == []  # only with --engine-answers
    comparisons = report["comparisons"]  # hybrid against each single mode, per level and metric
    assert {(c["level"], c["versus"], c["metric"]) for c in comparisons} == {
        (level, versus, metric)
        for level in ("doc", "page")
        for versus in ("dense", "bm25")
        for metric in ("ndcg@10", "recall@10")
    }
    for c in comparisons:
        lower, upper = c["interval"]
        assert lower <= c["difference"] <= upper and c["questions"] == 6
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"],
        cwd=REPO_DIR,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    assert report["commit"] == (head or "unknown")
    records = report["records"]
    assert [(r["mode"], r["level"]) for r in records] == [
        (mode, level) for mode in ("dense", "bm25", "hybrid") for level in ("doc", "page")
    ]
    for record in records:
        assert set(record) == RECORD_KEYS
        assert record["dataset"] == "tinyset"
        assert all(0.0 <= record[key] <= 1.0 for key in METRIC_KEYS)
        assert record["settings"]["embedder_model"] == "fake-hash-embedder"
        assert record["settings"]["question_encoder"] == ""  # no choice of encoder there
        assert record["settings"]["passage_precision"] == ""  # nor of number format
        assert record["settings"]["documents"] == len(WORDS)
        assert record["queries"] == 6
        assert record["skipped_queries"] == 4  # the question without gold, the impossible ones
    for mode in ("dense", "bm25", "hybrid"):
        # Every question repeats its document's two own words: it must come first.
        assert _by(records, mode, "doc")["recall@1"] == 1.0
        assert _by(records, mode, "doc")["mrr@10"] == 1.0
        assert _by(records, mode, "page")["recall@1"] == 1.0
        assert _by(records, mode, "doc")["recall@100"] == 1.0

    refusal = report["refusal"]
    assert all(set(r) == REFUSAL_KEYS for r in refusal)
    pairs = {(r["corpus"], r["out_of_scope"]) for r in refusal}
    assert pairs == {("tinyset", "tinyset (unanswerable)"), ("tinyset", "elsewhere")}
    asked_elsewhere = [r for r in refusal if r["out_of_scope"] == "elsewhere"]
    assert [r["threshold"] for r in asked_elsewhere] == list(THRESHOLDS)
    assert asked_elsewhere[0]["refused_out_of_scope"] == 0.0  # threshold 0 refuses nothing
    assert asked_elsewhere[0]["refused_in_scope"] == 0.0
    for rate in ("refused_out_of_scope", "refused_in_scope"):
        rates = [r[rate] for r in asked_elsewhere]
        assert rates == sorted(rates)  # a higher threshold never refuses less
    # Somewhere in the sweep the gate tells the two apart: unknown words are refused first.
    assert any(r["refused_out_of_scope"] > r["refused_in_scope"] for r in asked_elsewhere)
    summary = {(r["corpus"], r["out_of_scope"]): r for r in report["refusal_summary"]}
    assert set(summary) == pairs
    elsewhere = summary[("tinyset", "elsewhere")]
    assert 0.5 < elsewhere["auc"] <= 1.0
    assert elsewhere["refused_in_scope_at_budget"] <= 0.10
    assert elsewhere["calibrated_threshold"] is None  # too few headings to calibrate on

    # Each question's extractive answer first quotes the sentence holding both its words, with
    # the sentence after it (the filler): the FAQ answer's F1 counts the filler's words too.
    assert report["answers"] == [
        {
            "dataset": "tinyset",
            "answerer": "extractive",
            "questions": 2,
            "answered": 1.0,
            **{f"hit@{k}": 1.0 for k in (1, 3, 5)},
            **{f"f1@{k}": 0.4 for k in (1, 3, 5)},
        }
    ]

    drozzle, wumpkin = OTHER_WORDS[:2]
    assert report["near_duplicates"] == [
        {
            "dataset": "tinyset",
            "questions": 10,
            "threshold": 0.95,
            "similar_pairs": 3,  # the three wordings of drozzle and wumpkin
            "reused_pairs": 1,
            "reused_examples": [[f"The {drozzle} {wumpkin}?", f"{drozzle} {wumpkin}"]],
        }
    ]

    markdown = (tmp_path / "reports" / "eval.md").read_text()
    assert "| bm25 | doc | 6 | 4 |" in markdown
    assert "| tinyset | 10 | 0.95 | 3 | 1 |" in markdown
    assert "| tinyset | 2 | 1.0000 | hit | 1.0000 | 1.0000 | 1.0000 |" in markdown
    assert "| tinyset | 2 | 1.0000 | f1 | 0.4000 | 0.4000 | 0.4000 |" in markdown
    assert "out of scope: elsewhere" in markdown
    assert "7 in-scope and 5 out-of-scope questions." in markdown
    for chart in ("eval_metrics.png", "eval_refusal.png"):
        assert (tmp_path / "reports" / chart).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not Guru.objects.filter(slug__startswith="eval-").exists()


def test_a_rerun_reuses_the_index_and_gives_identical_results(tmp_path: Path) -> None:
    dataset = str(write_tiny_dataset(tmp_path / "tinyset"))
    try:
        first = run_eval(tmp_path / "one", "--dataset", dataset, "--mode", "bm25")
        guru = Guru.objects.get(slug__startswith="eval-tinyset-")
        second = run_eval(tmp_path / "two", "--dataset", dataset, "--mode", "bm25")
        assert Guru.objects.get(slug__startswith="eval-tinyset-") == guru
        assert second == first
        assert (tmp_path / "one" / "eval.json").read_bytes() == (
            tmp_path / "two" / "eval.json"
        ).read_bytes()
        # Other chunk settings are another index, in another guru.
        run_eval(
            tmp_path / "three",
            "--dataset",
            dataset,
            "--mode",
            "bm25",
            "--chunk-size",
            "40",
        )
        assert Guru.objects.filter(slug__startswith="eval-tinyset-").count() == 2
    finally:
        _delete_eval_gurus()


def test_default_run_pairs_the_docs_faq_datasets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    eval_dir = tmp_path / "eval"
    write_tiny_dataset(eval_dir / "python-docs-faq")
    write_tiny_dataset(eval_dir / "django-docs-faq", words=[*OTHER_WORDS, *WORDS[:5]])
    monkeypatch.setenv("OPENGURU_EVAL_DIR", str(eval_dir))

    report = run_eval(tmp_path / "reports", "--mode", "hybrid", "--drop-gurus")

    assert {r["dataset"] for r in report["records"]} == {
        "django-docs-faq",
        "python-docs-faq",
    }
    pairs = {(r["corpus"], r["out_of_scope"]) for r in report["refusal"]}
    assert ("python-docs-faq", "django-docs-faq") in pairs
    assert ("django-docs-faq", "python-docs-faq") in pairs
    assert len(report["refusal"]) == len(pairs) * len(THRESHOLDS)


def test_quick_run_options(tmp_path: Path) -> None:
    dataset = str(write_tiny_dataset(tmp_path / "tinyset"))
    report = run_eval(
        tmp_path / "reports",
        *("--dataset", dataset, "--mode", "bm25", "--mode", "dense"),
        *("--limit-queries", "2", "--max-docs", "1", "--drop-gurus"),
    )
    records = report["records"]
    assert {r["mode"] for r in records} == {"dense", "bm25"}
    doc = _by(records, "bm25", "doc")
    assert doc["queries"] == 2
    # The first record plus the gold documents of the two questions asked.
    assert doc["settings"]["documents"] == 2
    assert doc["settings"]["max_docs"] == 1
    assert doc["recall@1"] == 1.0
    assert report["refusal"] == []  # refusal is measured on the hybrid mode only


def test_rerank_mode_needs_a_reranker(tmp_path: Path) -> None:
    dataset = str(write_tiny_dataset(tmp_path / "tinyset"))
    with pytest.raises(CommandError, match="RERANK_API_URL"):
        call_command("eval", "--dataset", dataset, "--mode", "hybrid_rerank")


def test_a_folder_that_is_not_a_dataset_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(CommandError, match="not a BEIR dataset folder"):
        call_command("eval", "--dataset", str(tmp_path / "empty"))


def test_starts_its_own_milvus_when_nothing_answers(tmp_path: Path) -> None:
    silent = f"http://127.0.0.1:{free_port()}"
    messages: list[str] = []
    with override_settings(MILVUS_URI=silent):
        with milvus_for_eval(tmp_path, messages.append) as uri:
            assert uri != silent
            assert uri == settings.MILVUS_URI
            get_vector_store().ping()
            assert (tmp_path / "eval-milvus").is_dir()
        assert not answers(uri)  # stopped at the end
        assert re.search(r"starting Milvus Lite", messages[0])
    get_vector_store.cache_clear()


def test_uses_the_configured_milvus_when_it_answers(tmp_path: Path, milvus_server: str) -> None:
    with milvus_for_eval(tmp_path, print) as uri:
        assert uri == milvus_server
    assert not (tmp_path / "eval-milvus").exists()
