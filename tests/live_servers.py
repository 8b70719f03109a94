"""The live servers the browser, deploy and probe tests share, started once per test process
(each xdist worker has its own) when a test first asks for them: the ASGI app under uvicorn on
the test database, one `next dev` pointed at it, and Chromium.

Starting `next dev` and compiling its routes takes half a minute to a minute; once per module it
was the largest part of the suite's time. Shared, each route compiles once per process. What a
test sees stays its own: transactional tests empty the database after each test, each tab is a
browser context of its own (no cookies or storage carried over), and the UI fetches with
`cache: "no-store"`, so `next dev` keeps compiled code but no data."""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from benchmarks.chromium import BrowserThread
from openguru.providers.vectorstore.lite_server import free_port, wait_for_port

from tests.browser.next_site import NextSite


@contextmanager
def serve_asgi(application: Any, *, proxy_headers: bool = False) -> Iterator[str]:
    """`application` under uvicorn in a thread on a free loopback port; its URL. Without proxy
    headers by default, as `make run` and gunicorn serve it."""
    port = free_port()
    config = uvicorn.Config(
        application,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
        proxy_headers=proxy_headers,
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


@pytest.fixture(scope="session")
def live_api(django_db_setup: None) -> Iterator[str]:
    """The ASGI app under uvicorn: the Next server and nginx point at it."""
    from config.asgi import application

    with serve_asgi(application) as url:
        yield url


@pytest.fixture(scope="session")
def next_dev(live_api: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[NextSite]:
    """`next dev` against `live_api`, its address fixed up front; it starts with the first
    `NextSite.serve` (some tests only need the address, for nginx's configuration)."""
    site = NextSite(live_api, tmp_path_factory.mktemp("next") / "next-dev.log")
    try:
        yield site
    finally:
        site.stop()


@pytest.fixture(scope="session")
def chromium() -> Iterator[BrowserThread]:
    browser = BrowserThread().start()
    try:
        yield browser
    finally:
        browser.stop()
