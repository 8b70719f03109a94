"""`manage.py eval` with a TEI reranker configured (the loopback TEI server over HTTP): the
hybrid_rerank mode runs by default and is compared with plain hybrid question by question."""

from pathlib import Path

import pytest

from tests.conftest import clear_provider_caches
from tests.evaluation.test_eval_command import run_eval, write_tiny_dataset
from tests.fakes.tei_server import FakeTEIServer

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_reranked_mode_is_evaluated_and_compared_with_hybrid(tmp_path: Path, settings):
    dataset = write_tiny_dataset(tmp_path / "tinyset")
    with FakeTEIServer() as tei:
        settings.RERANK_API_URL = tei.url
        clear_provider_caches()
        try:
            report = run_eval(tmp_path / "reports", "--dataset", str(dataset), "--drop-gurus")
        finally:
            clear_provider_caches()
        assert any(r.path == "/rerank" for r in tei.requests)

    modes = {r["mode"] for r in report["records"]}
    assert modes == {"dense", "bm25", "hybrid", "hybrid_rerank"}
    reranked = {(c["level"], c["metric"]) for c in report["comparisons"] if c["versus"] == "hybrid"}
    assert reranked == {(lv, m) for lv in ("doc", "page") for m in ("ndcg@10", "recall@10")}
    assert all(
        c["mode"] == "hybrid_rerank" for c in report["comparisons"] if c["versus"] == "hybrid"
    )
    markdown = (tmp_path / "reports" / "eval.md").read_text()
    assert "## Modes compared question by question" in markdown
    assert "| hybrid_rerank | hybrid |" in markdown
