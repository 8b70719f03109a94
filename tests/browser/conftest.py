"""Browser tests of the embeddable widget: Debian's Chromium (Playwright, shared by the process:
tests/live_servers.py), the real ASGI app under uvicorn, the loopback LLM, and host pages on other
loopback ports (a widget always runs cross-origin)."""

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from benchmarks.chromium import BrowserThread, PageServer
from django.conf import settings
from openguru.gurus.models import Guru
from openguru.integrations.widget.services import widget_id_create
from playwright.sync_api import Page

from tests.answers.conftest import python_guru  # noqa: F401
from tests.answers.test_streaming_http import live_asgi  # noqa: F401
from tests.browser.host_site import embed_page

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def widget_built() -> None:
    if not Path(settings.WIDGET_JS_PATH).is_file():
        pytest.fail(f"{settings.WIDGET_JS_PATH} is not built: run `make install`")


@pytest.fixture
def host_site() -> Iterator[PageServer]:
    site = PageServer().start()
    yield site
    site.stop()


@pytest.fixture
def other_site() -> Iterator[PageServer]:
    site = PageServer().start()
    yield site
    site.stop()


@dataclass
class Tab:
    """A page and what it saw: dialogs (alert() must never run) and the widget's responses."""

    page: Page
    dialogs: list[str] = field(default_factory=list)
    statuses: dict[str, list[int]] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)
    asks: list[dict] = field(default_factory=list)  # the bodies the widget sent to widget/ask/


@pytest.fixture
def tab(chromium: BrowserThread, widget_built: None) -> Iterator[Tab]:
    page = chromium.new_page(viewport={"width": 1280, "height": 800})
    seen = Tab(page)

    def watch() -> None:
        def on_dialog(dialog) -> None:
            seen.dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)
        page.on(
            "response",
            lambda r: seen.statuses.setdefault(r.url.split("/api/", 1)[-1], []).append(r.status),
        )
        page.on("requestfailed", lambda r: seen.failed.append(r.url.split("/api/", 1)[-1]))
        page.on(
            "request",
            lambda r: (
                seen.asks.append(json.loads(r.post_data or "{}"))
                if r.method == "POST" and r.url.endswith("/api/widget/ask/")
                else None
            ),
        )

    chromium.run(watch)
    yield seen
    chromium.close_page(page)


@pytest.fixture
def widget_key(python_guru: Guru, host_site: PageServer) -> str:  # noqa: F811
    return widget_id_create(guru=python_guru, domain_pattern=host_site.origin).key


def embed(site: PageServer, live: str, key: str, **attrs: str) -> str:
    """Puts the widget's script tag on `site`'s page; returns the page's URL."""
    data = {"data-widget-id": key, "data-base-url": f"{live}/api", **attrs}
    site.html = embed_page(script_src=f"{live}/widget.js", attrs=data)
    return f"{site.origin}/"
