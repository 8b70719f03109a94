"""A golden set of a versioned guru: each pair is measured in its expected source's version, as
an answer of that version would retrieve it, and each run reports every version on its own."""

import io
import json

import pytest
from django.core.management import CommandError, call_command
from openguru.evaluation.golden import golden_pair_create
from openguru.sources.models import DataSource

from tests.answers.test_versions import GLOSSARY, django_guru, page  # noqa: F401

QUESTION = "How do I add middleware to the MIDDLEWARE setting?"


def test_each_pair_is_measured_in_its_sources_version(django_guru, admin_client):  # noqa: F811
    for version in ("4.2", "5.0"):
        golden_pair_create(
            guru=django_guru,
            question=QUESTION,
            expected_source_id=DataSource.objects.get(url=page(version)).pk,
        )
    golden_pair_create(  # an unversioned source: measured in the default version, 5.0
        guru=django_guru,
        question="What is a Django project?",
        expected_source_id=DataSource.objects.get(url=GLOSSARY).pk,
    )

    response = admin_client.post("/api/gurus/django/golden/runs/")

    assert response.status_code == 202, response.content
    run = response.json()
    assert run["recall_at_5"] == 1.0
    by_source = {d["expected_source_id"]: d for d in run["details"]}
    ids = dict(DataSource.objects.values_list("url", "pk"))
    for version, other in (("4.2", "5.0"), ("5.0", "4.2")):
        detail = by_source[ids[page(version)]]
        assert detail["version"] == version
        assert detail["found_rank"] == 1, detail
        assert ids[page(other)] not in {passage["source_id"] for passage in detail["top"]}
    assert by_source[ids[GLOSSARY]]["version"] == "5.0"
    assert run["by_version"] == {
        "4.2": {"pairs": 1, "recall_at_5": 1.0, "refusal_rate": 0.0},
        "5.0": {"pairs": 2, "recall_at_5": 1.0, "refusal_rate": 0.0},
    }


def test_make_eval_measures_one_versions_golden_pairs(django_guru, tmp_path):  # noqa: F811
    for version in ("4.2", "5.0"):
        golden_pair_create(
            guru=django_guru,
            question=QUESTION,
            expected_source_id=DataSource.objects.get(url=page(version)).pk,
        )
    out = io.StringIO()

    call_command(
        "eval", "--golden", "django", "--version", "v4.2", reports_dir=tmp_path, stdout=out
    )

    report = json.loads((tmp_path / "golden-django-4.2.json").read_text())
    assert report["version"] == "4.2" and report["pairs"] == 1
    assert [d["version"] for d in report["details"]] == ["4.2"]
    assert report["details"][0]["found_rank"] == 1
    assert report["by_version"] == {"4.2": {"pairs": 1, "recall_at_5": 1.0, "refusal_rate": 0.0}}
    assert "golden django (version 4.2): recall@5 1.0000" in out.getvalue()
    for args, message in (
        (["--golden", "django", "--version", "3.1"], "no version '3.1'"),
        (["--version", "4.2"], "--golden"),
    ):
        with pytest.raises(CommandError, match=message):
            call_command("eval", *args, reports_dir=tmp_path)
