"""Section 7 — the embeddable widget: its bundle's size (raw and gzipped, as /widget.js serves
it), and in headless Chromium the time from submitting a question to the first answer text on
screen, as a ratio of the internal SSE stream's first `delta` measured in the same run.
Questions alternate between the two, one at a time, so drift hits both alike. Each widget
question starts on a freshly loaded page (a question asked in an open conversation would be a
follow-up), once the widget has fetched its guru."""

import gzip
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
from django.conf import settings
from openguru.gurus.models import Guru
from openguru.integrations.widget.services import widget_id_create

from benchmarks.api_server import ApiServer
from benchmarks.chromium import BrowserThread, PageServer
from benchmarks.first_token import api_first_token, first_token_row

if TYPE_CHECKING:
    from playwright.sync_api import Page

GZIP_BUDGET_BYTES = 60_000
SHADOW = "document.querySelector('openguru-widget').shadowRoot"

# Submits the question and resolves with the milliseconds from the click to the first answer
# text in the DOM (the title line is not the answer), and to the end of the answer.
_MEASURE = f"""async ({{question, timeout}}) => {{
  const root = {SHADOW};
  return await new Promise((resolve) => {{
    let first = null;
    const start = performance.now();
    const finish = (outcome) => {{
      observer.disconnect();
      resolve({{first_ms: first, total_ms: performance.now() - start, outcome}});
    }};
    const observer = new MutationObserver(() => {{
      const answer = root.querySelector('[data-part=answer]');
      if (!answer) return;
      if (answer.querySelector('.error')) return finish('error: ' + answer.textContent.trim());
      if (answer.querySelector('[data-part=notice]')) return finish('refused');
      const text = answer.textContent.trim();
      if (first === null && text && text !== 'Thinking') first = performance.now() - start;
      if (root.querySelector('[data-part=trust]')) finish('answered');
    }});
    observer.observe(root, {{subtree: true, childList: true, characterData: true}});
    setTimeout(() => finish('timeout'), timeout);
    root.querySelector('textarea').value = question;
    root.querySelector('form.ask button[type=submit]').click();
  }});
}}"""

_GURU_LOADED = f"() => {SHADOW}?.querySelector('.intro') !== null"


def bundle_sizes(api: ApiServer) -> dict[str, Any]:
    built = Path(settings.WIDGET_JS_PATH).read_bytes()
    served = httpx.get(f"{api.url}/widget.js", timeout=30)
    served.raise_for_status()
    gzipped = len(gzip.compress(served.content, compresslevel=9))
    return {
        "raw_bytes": len(served.content),
        "gzip9_bytes": gzipped,
        "gzip_budget_bytes": GZIP_BUDGET_BYTES,
        "within_budget": gzipped < GZIP_BUDGET_BYTES,
        "served_is_built": served.content == built,
    }


def _page_html(api: ApiServer, key: str) -> str:
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>Docs</title></head><body>"
        f'<script src="{escape(api.url)}/widget.js" data-widget-id="{escape(key)}" '
        f'data-base-url="{escape(api.url)}/api"></script></body></html>'
    )


def _widget_ask(page: "Page", url: str, question: str, timeout_s: float) -> dict[str, Any]:
    page.goto(url)
    page.wait_for_function(_GURU_LOADED)
    page.locator(".launcher").click()
    result: dict[str, Any] = page.evaluate(
        _MEASURE, {"question": question, "timeout": timeout_s * 1000}
    )
    return result


def first_token(
    api: ApiServer, guru: Guru, questions: list[str], *, timeout: float
) -> dict[str, Any]:
    site = PageServer().start()
    widget = widget_id_create(guru=guru, domain_pattern=site.origin)
    site.html = _page_html(api, widget.key)
    browser = BrowserThread()
    widget_ms: list[float] = []
    api_ms: list[float] = []
    outcomes: dict[str, list[str]] = {"widget": [], "api_sse": []}
    try:
        page = browser.start().new_page()
        for i, question in enumerate(questions):
            if i % 2:
                seen = browser.run(_widget_ask, page, f"{site.origin}/", question, timeout)
                outcomes["widget"].append(seen["outcome"])
                if seen["outcome"] == "answered" and seen["first_ms"] is not None:
                    widget_ms.append(seen["first_ms"])
            else:
                api_first_token(
                    api, guru, question, timeout, outcomes=outcomes["api_sse"], times_ms=api_ms
                )
        version = browser.version
    finally:
        browser.stop()  # closes the page with the browser
        site.stop()
        widget.delete()
    return first_token_row(
        "widget", browser_ms=widget_ms, api_ms=api_ms, outcomes=outcomes, chromium=version
    )


def run_widget(
    *,
    api: ApiServer,
    guru: Guru,
    questions: list[str],
    timeout: float,
    log: Callable[[str], None],
) -> dict[str, Any]:
    bundle = bundle_sizes(api)
    log(f"widget: bundle {bundle}")
    log(f"widget: {len(questions)} questions alternating between the widget and the SSE stream")
    ttft = first_token(api, guru, questions, timeout=timeout)
    log(f"widget: first answer text {ttft}")
    return {"bundle": bundle, "first_token": ttft}
