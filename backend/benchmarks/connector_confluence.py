"""The Confluence connector's ingest rate: n pages of one space served by the loopback Confluence
Cloud stand-in (tests/fakes/confluence_api.py, REST v2 with cursor pages, in this process),
indexed through the real processing path (source create -> task, run eagerly -> connector,
storage format -> HTML chunker, embedder, vector store) into a temporary guru on the configured
database and vector store, which is deleted afterwards."""

from typing import Any

from benchmarks.connectors import index_and_resync, scratch_guru

PAGE_SIZE = 250  # REST v2's largest page
TOKEN, EMAIL = "bench-api-token", "bench@example.com"


def bench_ingest(n_items: int = 1000) -> dict[str, Any]:
    from tests.fakes.confluence_api import FakeConfluenceApi, FakePage

    with FakeConfluenceApi(deployment="cloud", token=TOKEN, email=EMAIL) as confluence:
        confluence.page_size = PAGE_SIZE
        confluence.add_space("BENCH", "1001")
        for number in range(1, n_items + 1):
            confluence.add_page(_page(FakePage, number))
        with scratch_guru("cf") as guru:
            return index_and_resync(
                guru=guru,
                connector="confluence",
                n_items=n_items,
                url=confluence.base_url,
                token=TOKEN,
                options={"deployment": "cloud", "space": "BENCH", "email": EMAIL},
            )


def _page(make: Any, number: int) -> Any:
    """A page in storage format: a few headed sections and a code macro, under a parent page
    every ten pages so the space is a tree."""
    sections = "".join(
        f"<h2>Step {part} of runbook {number}</h2>"
        f"<p>For step {part} of runbook {number}, open the console, pick the service numbered "
        f"{number * 7 + part} and confirm; the on-call engineer is paged within {part + 1} "
        f"minutes when it fails.</p>"
        for part in range(1, 4)
    )
    code = (
        '<ac:structured-macro ac:name="code"><ac:parameter ac:name="language">bash'
        f"</ac:parameter><ac:plain-text-body><![CDATA[runbook run {number} --confirm]]>"
        "</ac:plain-text-body></ac:structured-macro>"
    )
    parent = str(number - number % 10) if number % 10 else ""
    body = f"<p>Runbook {number} for the operations team.</p>{sections}{code}"
    return make(str(number), "BENCH", f"Runbook {number}", body, parent_id=parent)
