"""Run configuration and the report's shape (other tools read `reports/bench.json`)."""

import json
from pathlib import Path

import pytest
from benchmarks.config import SECTIONS, SLACK_ONE_AT_A_TIME, WARMUP_QUESTIONS, BenchConfig
from benchmarks.report import REPORT_KEYS, build_report, write_report
from benchmarks.search import SearchPlan, large_size, projected_seconds


def test_sections_run_in_their_fixed_order() -> None:
    config = BenchConfig.build(sections=("cached", "ingest"), output=Path("x.json"))
    assert config.sections == ("ingest", "cached")
    assert config.asks and config.needs_docs_guru


def test_unknown_sections_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown sections: speed"):
        BenchConfig.build(sections=("ingest", "speed"), output=Path("x.json"))


def test_search_only_needs_no_docs_guru() -> None:
    config = BenchConfig.build(sections=("search",), output=Path("x.json"))
    assert not config.asks and not config.needs_docs_guru


def test_every_asked_question_is_counted_in_advance() -> None:
    config = BenchConfig.build(sections=SECTIONS, output=Path("x.json"), quick=True)
    levels, modes = config.concurrency_levels, config.concurrency_modes
    expected = WARMUP_QUESTIONS + 2 * config.ttft_questions + sum(levels) * len(modes) + 1
    expected += config.api_stream_questions + config.widget_questions + config.ui_questions
    expected += 1 + SLACK_ONE_AT_A_TIME + config.slack_events  # a warm-up event, then measured
    assert config.questions_needed() == expected


def test_full_indexes_the_whole_site_and_forces_the_large_search() -> None:
    config = BenchConfig.build(sections=SECTIONS, output=Path("x.json"), full=True)
    assert config.scope.include_patterns == ()
    assert config.search.force_large
    assert config.search.parts == ("latency", "recall")


def test_the_recall_curve_runs_alone_at_the_sizes_asked() -> None:
    default = BenchConfig.build(sections=("search",), output=Path("x.json"))
    assert default.search.parts == ("latency",)
    config = BenchConfig.build(
        sections=("search",),
        output=Path("x.json"),
        search_parts=("recall",),
        recall_sizes=(500_000, 100_000),
    )
    assert config.search.parts == ("recall",)
    assert config.search.recall_sizes == (100_000, 500_000)
    assert config.as_dict()["recall_sizes"] == [100_000, 500_000]
    with pytest.raises(ValueError, match="unknown search parts: speed"):
        BenchConfig.build(sections=("search",), output=Path("x"), search_parts=("speed",))


@pytest.mark.parametrize("quick", [False, True])
def test_a_chosen_database_is_kept_at_every_size(quick: bool) -> None:
    url = "postgres://postgres@127.0.0.1:5432/og_bench_speed"
    config = BenchConfig.build(
        sections=SECTIONS, output=Path("x.json"), quick=quick, database_url=url
    )
    assert config.database_url == url
    assert config.as_dict()["database"] == "postgres"


@pytest.mark.parametrize("quick", [False, True])
def test_the_fake_llm_takes_a_fixed_time_per_call_unless_paced(quick: bool) -> None:
    """The issue's TTFT targets are ratios of a fake LLM "that takes a fixed 300 ms per call"."""
    fixed = BenchConfig.build(sections=SECTIONS, output=Path("x.json"), quick=quick)
    assert fixed.latency.fixed_call
    assert fixed.as_dict()["llm_latency_profile"] == "fixed_call"
    paced = BenchConfig.build(sections=SECTIONS, output=Path("x.json"), quick=quick, paced_llm=True)
    assert not paced.latency.fixed_call
    assert paced.as_dict()["llm_latency_profile"] == "paced"
    assert paced.latency.call_ms == fixed.latency.call_ms == 300.0


def test_the_large_search_size_follows_the_measured_insert_rate() -> None:
    plan = SearchPlan(large=100_000, fallback=50_000, large_budget_s=300)
    assert projected_seconds(100_000, 1_000) == pytest.approx(250.0)
    assert large_size(plan, 1_000)[0] == 100_000
    size, why = large_size(plan, 500)  # ~8 minutes: over budget
    assert size == 50_000 and "over the 300s budget" in why
    assert large_size(SearchPlan(force_large=True), 190)[0] == 100_000


def test_report_has_every_key_and_nulls_for_sections_not_run(tmp_path: Path) -> None:
    report = build_report({"cached_answer_rps": 12.5}, settings={}, notes={}, seconds=1.0)
    assert list(report)[: len(REPORT_KEYS) + 1] == ["commit", *REPORT_KEYS]
    assert report["cached_answer_rps"] == 12.5
    assert report["ingest"] is None and report["concurrency"] is None
    assert isinstance(report["commit"], str) and report["commit"]
    path = tmp_path / "reports" / "bench.json"
    write_report(path, report)
    assert json.loads(path.read_text()) == report
    assert list(path.parent.iterdir()) == [path]  # no partial file left behind


def test_the_report_says_how_questions_and_passages_were_embedded(settings) -> None:
    from benchmarks.runner import report_settings

    config = BenchConfig.build(sections=("ttft",), output=Path("x.json"))
    settings.EMBEDDING_LOCAL_QUERY_BACKEND = "onnx-int8"
    settings.EMBEDDING_LOCAL_PRECISION = "bfloat16"
    recorded = report_settings(config)
    assert recorded["question_encoder"] == "onnx-int8"
    assert recorded["passage_precision"] == "bfloat16"
    settings.EMBEDDING_LOCAL_PRECISION = "auto"  # resolved by this CPU, never left as "auto"
    assert report_settings(config)["passage_precision"] in ("float32", "bfloat16")
    assert recorded["sections"] == ["ttft"]
