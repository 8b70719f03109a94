"""The Q&A site (the shared `next dev`, its routes compiled, see tests/live_servers.py), a tab in
Chromium, and the answerer each main flow runs with."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from benchmarks.chromium import BrowserThread

from tests.browser.next_site import NextSite
from tests.browser.tab import Tab
from tests.conftest import clear_provider_caches


@pytest.fixture
def site(next_dev: NextSite, django_db_blocker) -> NextSite:
    # Routes compile on their first request; done here, it stays out of the tests' timeouts.
    with django_db_blocker.unblock():
        return next_dev.serve(
            "/",
            "/g/python",
            "/g/python/q",
            f"/g/python/b/{'0' * 8}-{'0' * 4}-4{'0' * 3}-8{'0' * 3}-{'0' * 12}",
        )


@pytest.fixture
def tab(chromium: BrowserThread, tmp_path: Path) -> Iterator[Tab]:
    page = chromium.new_page(viewport={"width": 1100, "height": 900})
    seen = Tab(page, tmp_path)

    def watch() -> None:
        def on_dialog(dialog) -> None:
            seen.dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)
        page.on("pageerror", lambda error: seen.errors.append(str(error)))

    chromium.run(watch)
    yield seen
    chromium.close_page(page)


@pytest.fixture(params=["llm", "extractive"])
def answerer(request: pytest.FixtureRequest, settings) -> str:
    """The loopback LLM, or no LLM at all: the answer is then quoted from the sources."""
    if request.param == "llm":
        request.getfixturevalue("llm_server").token_ms = 60
    else:
        settings.LLM_PROVIDER = "none"
        clear_provider_caches()
        request.addfinalizer(clear_provider_caches)
    return request.param
