"""`make eval`'s small gurus: two gurus of the built-in set (an FAQ and a PDF written with
reportlab) built through the real loaders, chunker, indexer, calibration and gate, on the fake
embedder, the real Milvus Lite and the real database. What it measures is not asserted, only that
it measures: every question asked, the rates per kind, the tables."""

import shutil
from pathlib import Path

import pytest
from openguru.evaluation.small_gurus import SMALL_GURUS_DIR, small_gurus_load
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource

from tests.evaluation.test_eval_command import run_eval, write_tiny_dataset

pytestmark = pytest.mark.django_db(transaction=True)
PICKED = ("faq-router", "pdf-dishwasher")


def test_the_dev_set_has_a_dozen_gurus_of_each_kind_with_both_kinds_of_questions():
    gurus = small_gurus_load()
    assert len(gurus) == 12
    assert sorted(g.kind for g in gurus) == ["faq"] * 4 + ["pdf"] * 4 + ["text"] * 4
    for guru in gurus:
        assert len(guru.in_scope) >= 6 and len(guru.unrelated) >= 6, guru.name
        assert not set(guru.in_scope) & set(guru.unrelated)


def test_make_eval_measures_small_gurus_refusals_per_kind(tmp_path: Path) -> None:
    folder = tmp_path / "small"
    folder.mkdir()
    for name in PICKED:
        shutil.copy(SMALL_GURUS_DIR / f"{name}.json", folder)
    specs = {spec.name: spec for spec in small_gurus_load(folder)}

    report = run_eval(
        tmp_path / "reports",
        "--dataset",
        str(write_tiny_dataset(tmp_path / "tinyset")),
        "--mode",
        "hybrid",
        "--small-gurus",
        str(folder),
    )

    gurus = {record["guru"]: record for record in report["small_gurus"]["gurus"]}
    assert set(gurus) == set(PICKED)
    for name, record in gurus.items():
        spec = specs[name]
        assert record["kind"] == spec.kind
        assert record["chunks"] > 0  # indexed through its loader
        assert (record["in_scope"], record["unrelated"]) == (
            len(spec.in_scope),
            len(spec.unrelated),
        )
        for rate in ("refused_in_scope", "refused_unrelated"):
            assert 0.0 <= record[rate] <= 1.0
        refused = round(len(record["refused"]) / len(spec.in_scope), 4)
        assert record["refused_in_scope"] == refused
        assert set(record["refused"]) <= set(spec.in_scope)
        assert set(record["answered_unrelated"]) <= set(spec.unrelated)
        guru = Guru.objects.get(slug=f"eval-small-{name}")
        assert guru.calibrated_trust_threshold == record["calibrated_threshold"]
        source = DataSource.objects.get(guru=guru)
        assert (source.type, source.status) == (spec.kind, DataSource.Status.SUCCESS)
        assert bool(source.file) == (spec.kind == "pdf")
    summary = {row["kind"]: row for row in report["small_gurus"]["summary"]}
    assert set(summary) == {"faq", "pdf", "all"}
    assert summary["all"]["in_scope"] == sum(len(s.in_scope) for s in specs.values())
    assert summary["all"]["unrelated"] == sum(len(s.unrelated) for s in specs.values())
    markdown = (tmp_path / "reports" / "eval.md").read_text()
    assert "## Refusal: small gurus" in markdown
    assert f"| all | 2 | {summary['all']['in_scope']} |" in markdown
