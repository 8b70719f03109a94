"""The Zendesk connector's ingest rate: n help-center articles served by the loopback Zendesk
stand-in (tests/fakes/zendesk_api.py, in this process), indexed through the real processing path
(source create -> task, run eagerly -> connector, HTML chunker, embedder, vector store) into a
temporary guru on the configured database and vector store, which is deleted afterwards; then
re-synced unchanged (`benchmarks/connectors.py`)."""

from typing import Any

CONNECTOR = "zendesk"
PAGE_SIZE = 100  # Zendesk's cursor page


def bench_ingest(n_items: int = 1000) -> dict[str, Any]:
    """Needs Django set up with eager Celery and loopback allowed (the bench environment)."""
    from openguru.sources.processing import source_process  # noqa: F401  (imported untimed)

    from benchmarks.connectors import index_and_resync, scratch_guru
    from tests.fakes.zendesk_api import FakeArticle, FakeZendeskApi

    with FakeZendeskApi() as zendesk:  # a public help center: no credentials
        zendesk.page_size_max = PAGE_SIZE
        for number in range(1, n_items + 1):
            zendesk.add(_article(FakeArticle, number))
        with scratch_guru("zd") as guru:
            return index_and_resync(
                guru=guru, connector=CONNECTOR, n_items=n_items, url=zendesk.url
            )


def _article(make: Any, number: int) -> Any:
    """An article of a few sections, each under a heading with Zendesk's kind of id."""
    sections = "".join(
        f'<h2 id="h_{number:05d}{part}">Step {part} of task {number}</h2>'
        f"<p>To finish step {part} of task {number}, open the console, choose the project "
        f"numbered {number * 7 + part}, and confirm the change; the audit log keeps a line "
        f"for it and a reviewer is told within {part + 1} minutes.</p>"
        for part in range(1, 4)
    )
    body = f"<p>How to carry out task {number} in the workspace.</p>{sections}"
    return make(number, f"Task {number} how-to", body, "2025-01-01T00:00:00Z")
