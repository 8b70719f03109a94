"""Debian's Chromium driven by Playwright on a thread of its own, and a page server for it.

Playwright's sync API leaves an asyncio loop marked as running in the thread that drives it,
and Django refuses database calls from such a thread. So the browser lives on one worker
thread (every Playwright call is sent there) and the caller's thread keeps the database.
Playwright's own browser downloads are never used: `backend/scripts/browser_up.sh` installs
the system's Chromium.
"""

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
)

T = TypeVar("T")


class BrowserThread:
    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chromium")
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    def start(self) -> "BrowserThread":
        if not CHROMIUM.exists():
            raise RuntimeError(f"{CHROMIUM} is missing: run backend/scripts/browser_up.sh")
        self.run(self._launch)
        return self

    def _launch(self) -> None:
        from playwright.sync_api import sync_playwright  # a dev requirement: bench and tests

        self._playwright = sync_playwright().start()
        self._browser = self._playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS), headless=True
        )

    @property
    def version(self) -> str:
        return self._browser.version if self._browser is not None else ""

    def run(self, fn: Callable[..., T], *args: Any, timeout: float = 90) -> T:
        """Runs `fn(*args)` on the browser's thread and returns its result."""
        return self._pool.submit(fn, *args).result(timeout=timeout)

    def new_page(self, **context: Any) -> "Page":
        def open_page() -> "Page":
            assert self._browser is not None
            page = self._browser.new_context(**context).new_page()
            page.set_default_timeout(20_000)
            return page

        return self.run(open_page)

    def close_page(self, page: "Page") -> None:
        self.run(page.context.close)

    def stop(self) -> None:
        def shut() -> None:
            if self._browser is not None:
                self._browser.close()
            if self._playwright is not None:
                self._playwright.stop()

        try:
            self.run(shut, timeout=30)
        finally:
            self._pool.shutdown(wait=True)


class PageServer:
    """One HTML page on a loopback port of its own: a site that embeds the widget."""

    def __init__(self, html: str = "<!doctype html><p>empty</p>") -> None:
        self.html = html
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = site.html.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self._server.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self) -> "PageServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
