"""Source and guru summaries after ingestion: made with an LLM, skipped cleanly without one."""

import pytest
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource

pytestmark = pytest.mark.django_db(transaction=True)

LONG = "\n\n".join(
    f"## Part {i}\n\n" + " ".join(f"Sentence {i}.{j} about spinning widget {i}." for j in range(60))
    for i in range(6)
)


def _add(admin_client) -> DataSource:
    admin_client.post("/api/gurus/", {"slug": "sum", "name": "Sum"}, format="json")
    response = admin_client.post(
        "/api/gurus/sum/sources/",
        {"type": "text", "title": "Widgets", "content": LONG},
        format="json",
    )
    return DataSource.objects.get(pk=response.json()["id"])


def test_with_an_llm_sources_and_the_guru_get_recursive_summaries(admin_client, llm_server):
    source = _add(admin_client)
    source.refresh_from_db()
    assert source.status == "SUCCESS"
    assert source.summary
    assert Guru.objects.get(slug="sum").summary
    summary_calls = [
        r.body
        for r in llm_server.requests
        if "Summarize the following" in str(r.body.get("messages"))
    ]
    # More text than one call reads: group summaries, then a summary of those, then the guru's.
    assert len(summary_calls) >= 4
    assert any("partial summaries" in str(call["messages"]) for call in summary_calls)


def test_without_an_llm_summaries_are_skipped_not_failed(admin_client):
    source = _add(admin_client)
    source.refresh_from_db()
    assert source.status == "SUCCESS"
    assert source.summary == ""
    assert Guru.objects.get(slug="sum").summary == ""
