"""The connectors section runs every connector present through the real indexing path against
its loopback stand-in, embeds what it indexes, and leaves no guru behind."""

import pytest
from benchmarks.connectors import CONNECTORS, run_connectors
from openguru.gurus.models import Guru

pytestmark = pytest.mark.django_db(transaction=True)


def test_each_connector_indexes_its_items_then_resyncs_without_embedding():
    results = run_connectors(n_items=4, log=lambda line: None)

    assert set(results) == set(CONNECTORS)
    # Each issue's body and its one comment are two documents.
    assert results["github_issues"]["chunks"] == results["jira"]["chunks"] == 8
    for name, row in results.items():
        assert row["items"] == 4 and row["chunks"] >= 4, name
        assert row["chunks_embedded"] == row["chunks"], name  # nothing came from the cache
        assert row["resync_embedded"] == 0, name
        assert row["documents_per_s"] > 0, name
    assert not Guru.objects.exists()
