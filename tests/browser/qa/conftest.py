"""The Q&A site's live servers (the ASGI app under uvicorn, `next dev` pointed at it), Chromium
and a tab in it, once per module; and the answerer each main flow runs with."""

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from benchmarks.chromium import BrowserThread
from openguru.providers.vectorstore.lite_server import free_port, wait_for_port

from tests.browser.next_site import NextSite
from tests.browser.tab import Tab
from tests.conftest import clear_provider_caches


@pytest.fixture(scope="module")
def live_api(django_db_setup: None) -> Iterator[str]:
    """One ASGI server for the module: the Next server is started once and points at it."""
    from config.asgi import application

    port = free_port()
    config = uvicorn.Config(
        application,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
        proxy_headers=False,  # as `make run` and gunicorn serve it
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for_port("127.0.0.1", port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def site(
    live_api: str, tmp_path_factory: pytest.TempPathFactory, django_db_blocker
) -> Iterator[NextSite]:
    log = tmp_path_factory.mktemp("next") / "next-dev.log"
    next_site = NextSite(live_api, log).start()
    try:
        # Routes compile on their first request; done here, it stays out of the tests' timeouts.
        with django_db_blocker.unblock():
            next_site.warm(
                "/",
                "/g/python",
                "/g/python/q",
                f"/g/python/b/{'0' * 8}-{'0' * 4}-4{'0' * 3}-8{'0' * 3}-{'0' * 12}",
            )
        yield next_site
    finally:
        next_site.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[BrowserThread]:
    browser = BrowserThread().start()
    try:
        yield browser
    finally:
        browser.stop()


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
