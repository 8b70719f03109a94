"""The admin console (Next.js) in Chromium against the real backend, the way an admin uses it:
signed out it sends the browser to sign in; a staff user then creates a guru, adds a text source
and two PDFs (one picked, one dropped) and watches them index, asks on the public page, finds
that question in the guru's analytics chart, exports it as CSV, makes an API key and a widget
id. axe-core checks every console page on the way. Sources are indexed by the eager Celery of
the test settings, inside the upload request, as in the other browser tests."""

import base64
import csv
import io
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from django.conf import settings as django_settings
from openguru.answers.models import Question
from openguru.gurus.models import Guru
from openguru.integrations.models import APIKey, WidgetId
from openguru.sources.models import DataSource

from tests.answers.conftest import PAGES
from tests.answers.test_answer_engine import IN_SCOPE
from tests.browser.answers_shown import wait_for_trust
from tests.browser.console_site import (  # noqa: F401
    Console,
    console,
    console_site,
    sign_in,
    staff,
    trusts_console,
)
from tests.browser.qa.conftest import tab  # noqa: F401
from tests.sources.ingestion_helpers import guide_pdf, make_pdf

# The first test also waits for `next dev` to compile every console route (console_site): that
# takes minutes on a busy two-core machine, more than the suite's default timeout.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

NAME, SLUG = "Savanna Handbook", "savanna-handbook"
# Indexing runs inside the upload request here, and the answer calls the loopback LLM: on a busy
# shared machine either can take a while.
SLOW_MS = 120_000
TEXT = PAGES["Virtual environments"]

# Reads one chart's hidden data table: {row id: {series: value}}.
CHART_DATA = """(chart) => Object.fromEntries(
  [...document.querySelectorAll(`[data-chart=${chart}] [data-part=chart-data] tbody tr`)].map(
    tr => [tr.dataset.row, Object.fromEntries([...tr.querySelectorAll('td')].map(
      td => [td.dataset.series, Number(td.dataset.value)]))]))"""

# Whether today's bar is really on screen: the element at its centre is the bar itself (a bar
# clipped away by its box, or covered, is in the DOM and still has a size).
BAR_SHOWN = """(day) => {
  const bar = document.querySelector(`[data-chart=questions] svg rect[data-row="${day}"]`);
  bar.scrollIntoView({block: 'center'});
  const box = bar.getBoundingClientRect();
  return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === bar;
}"""

# Drops a PDF on the drop zone as a person dragging a file from their desktop would.
DROP_PDF = """([b64, name]) => {
  const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
  const data = new DataTransfer();
  data.items.add(new File([bytes], name, {type: 'application/pdf'}));
  const zone = document.querySelector('[data-part=pdf-drop]');
  zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: data, bubbles: true, cancelable: true}));
  zone.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));
}"""


def test_sign_in_build_a_guru_and_follow_a_question_into_analytics(
    console: Console,  # noqa: F811
    llm_server,
):
    browser, view, api = console.browser, console.tab, console.api
    origin = console.origin
    if not Path(django_settings.WIDGET_JS_PATH).is_file():
        pytest.fail(f"{django_settings.WIDGET_JS_PATH} is not built: run `make install`")

    def sign_in_and_create_a_guru() -> dict:
        page = view.page
        page.goto(f"{origin}/console/api-keys")
        page.wait_for_url("**/console/sign-in?next=%2Fconsole%2Fapi-keys")
        page.get_by_label("Username").wait_for()
        view.shot("01-sign-in")
        view.axe("sign-in")
        sign_in(page, console.staff)
        page.wait_for_url("**/console/api-keys")
        page.get_by_role("navigation", name="Console").get_by_role("link", name="Gurus").click()
        page.get_by_role("link", name="New guru").click()
        page.wait_for_url("**/console/gurus/new")
        page.get_by_label("Name", exact=True).fill(NAME)
        page.get_by_label("Domain knowledge").fill("Rangers' field notes")
        preview = page.locator("[data-part=guru-preview]").inner_text()
        view.shot("02-new-guru")
        view.axe("new-guru")
        slug = page.get_by_label("Slug").input_value()
        # On a phone the form is longer than the screen: the button is far down the page.
        page.set_viewport_size({"width": 390, "height": 700})
        page.get_by_role("button", name="Create guru").click()
        page.wait_for_url(f"**/console/gurus/{SLUG}/sources")
        title = page.get_by_role("heading", level=1, name=NAME)
        title.wait_for()
        page.wait_for_timeout(300)  # any scroll after the navigation has happened by now
        top = title.evaluate("h => h.getBoundingClientRect().top")
        page.set_viewport_size({"width": 1100, "height": 900})
        return {"preview": preview, "slug": slug, "title_top": top}

    seen = browser.run(sign_in_and_create_a_guru)
    assert seen["slug"] == SLUG  # suggested from the name
    assert seen["title_top"] >= 0, "the new guru's page opened scrolled past its title"
    assert NAME in seen["preview"] and "Rangers' field notes" in seen["preview"]
    guru = Guru.objects.get(slug=SLUG)
    assert guru.name == NAME and guru.domain_knowledge == "Rangers' field notes"

    def add_sources() -> dict:
        page = view.page
        page.get_by_role("button", name="Text", exact=True).click()
        page.get_by_label("Title", exact=True).fill("Virtual environments")
        page.get_by_label("Text", exact=True).fill(f"# Virtual environments\n\n{TEXT}\n")
        page.get_by_role("button", name="Add text").click()
        page.locator("tr[data-status=SUCCESS]").wait_for(timeout=SLOW_MS)
        page.get_by_role("button", name="PDF", exact=True).click()
        picked = {"name": "handbook.pdf", "mimeType": "application/pdf", "buffer": guide_pdf()}
        page.get_by_label("Choose PDF files").set_input_files([picked])
        dropped = make_pdf([["Tracks: the lion leaves round prints without claw marks."]])
        page.evaluate(DROP_PDF, [base64.b64encode(dropped).decode(), "tracks.pdf"])
        page.wait_for_function(
            "document.querySelectorAll('[data-upload-state=done]').length === 2", timeout=SLOW_MS
        )
        page.wait_for_function(
            "document.querySelectorAll('tr[data-status=SUCCESS]').length === 3", timeout=SLOW_MS
        )
        view.shot("03-sources")
        view.axe("sources")
        return {
            "bars": page.locator("[data-part=source-progress]").evaluate_all(
                "bars => bars.map(b => b.value)"
            ),
            "chunks": page.locator("[data-part=chunk-count]").all_inner_texts(),
            "uploads": page.get_by_role("list", name="Uploads").inner_text(),
            "counts": page.locator("tr[data-status=SUCCESS]").all_inner_texts(),
        }

    seen = browser.run(add_sources, timeout=400)
    sources = DataSource.objects.filter(guru=guru)
    assert sorted(sources.values_list("type", flat=True)) == ["pdf", "pdf", "text"]
    assert set(sources.values_list("status", flat=True)) == {"SUCCESS"}
    assert seen["bars"] == [1, 1, 1]  # each progress bar ran to its end
    assert sorted(int(n) for n in seen["chunks"]) == sorted(s.chunk_count for s in sources)
    assert all(s.chunk_count > 0 for s in sources)
    assert "handbook.pdf" in seen["uploads"] and "tracks.pdf" in seen["uploads"]
    assert "indexing next" not in seen["uploads"]  # they are indexed: the table says so
    assert not [row for row in seen["counts"] if " 1 chunks" in f" {row}"], seen["counts"]

    def ask_on_the_public_page() -> None:
        page = view.page
        page.goto(f"{origin}/g/{SLUG}")
        page.get_by_label(f"Ask {NAME} a question").fill(IN_SCOPE)
        page.keyboard.press("Enter")
        wait_for_trust(page, timeout=SLOW_MS)

    browser.run(ask_on_the_public_page, timeout=180)
    question = Question.objects.get()
    assert question.guru_id == guru.pk

    today = datetime.now(UTC).date().isoformat()  # analytics count whole days in UTC

    def read_analytics() -> dict:
        page = view.page
        page.goto(f"{origin}/console/gurus/{SLUG}/analytics")
        page.locator(f"[data-chart=questions] tr[data-row='{today}']").wait_for(state="attached")
        month = page.evaluate(CHART_DATA, "questions")
        page.get_by_label("Interval").select_option("today")
        page.wait_for_function(
            "document.querySelectorAll('[data-chart=questions] tbody tr').length === 1"
        )
        page.locator(f"[data-chart=questions] svg rect[data-row='{today}']").wait_for()
        view.shot("04-analytics")
        view.axe("analytics")
        return {
            "month": month,
            "today": page.evaluate(CHART_DATA, "questions"),
            "trust": page.evaluate(CHART_DATA, "trust"),
            "questions": page.locator("[data-total=questions]").get_attribute("data-value"),
            "bar_shown": page.evaluate(BAR_SHOWN, today),
            "bars": page.locator("[data-chart=questions] svg rect[data-row]").evaluate_all(
                "bars => bars.map(b => [b.dataset.row, b.dataset.series, b.dataset.value])"
            ),
            "cited": page.locator("[data-chart=top-sources]").inner_text(),
        }

    seen = browser.run(read_analytics)
    assert len(seen["month"]) == 30 and list(seen["month"])[-1] == today  # oldest first
    assert seen["today"] == {
        today: {
            "ui": 1,
            "api": 0,
            "widget": 0,
            "slack": 0,
            "discord": 0,
            "teams": 0,
            "github": 0,
            "total": 1,
        }
    }
    assert sum(v for day in seen["month"].values() for k, v in day.items() if k != "total") == 1
    assert sum(bucket["count"] for bucket in seen["trust"].values()) == 1
    assert seen["questions"] == "1"
    assert seen["bars"] == [[today, "ui", "1"]] and seen["bar_shown"]  # drawn, not only listed
    assert "Virtual environments" in seen["cited"]

    def export_csv() -> dict:
        page = view.page
        with page.expect_download() as info:
            page.get_by_role("button", name="Export CSV").click()
        download = info.value
        page.get_by_text("Downloaded").wait_for()
        return {
            "name": download.suggested_filename,
            "body": open(download.path(), encoding="utf-8-sig").read(),
        }

    seen = browser.run(export_csv)
    assert seen["name"].endswith(".csv")
    rows = list(csv.DictReader(io.StringIO(seen["body"])))
    assert [(r["question"], r["channel"]) for r in rows] == [(IN_SCOPE, "ui")]

    def make_an_api_key() -> dict:
        page = view.page
        page.get_by_role("navigation", name="Console").get_by_role("link", name="API keys").click()
        page.get_by_label("Key name").fill("docs check")
        page.get_by_role("button", name="Create key").click()
        raw = page.locator("[data-part=raw-key]").inner_text()
        prefix = page.locator("[data-part=key-prefix]").first.inner_text()
        view.shot("05-key-once")
        view.axe("keys")
        page.get_by_role("button", name="I have stored it").click()
        after = page.content()
        page.reload()
        page.locator("[data-part=key-prefix]").first.wait_for()
        return {"raw": raw, "prefix": prefix, "after": after, "reloaded": page.content()}

    seen = browser.run(make_an_api_key)
    key = APIKey.objects.get(name="docs check")
    assert seen["raw"].startswith(key.prefix) and len(seen["raw"]) > len(key.prefix) + 8
    assert seen["prefix"] == f"{key.prefix}…"
    assert seen["raw"] not in seen["after"] and seen["raw"] not in seen["reloaded"]
    listed = httpx.get(f"{api}/api/v1/{SLUG}/data-sources/", headers={"X-API-KEY": seen["raw"]})
    assert listed.status_code == 200, listed.text  # the key shown once is the real one

    def make_a_widget_id() -> dict:
        page = view.page
        page.goto(f"{origin}/console/gurus/{SLUG}/widget")
        page.get_by_label("Allowed sites").fill(origin)
        page.get_by_role("button", name="Create widget id").click()
        snippet = page.locator("[data-part=embed-snippet]").inner_text()
        page.get_by_role("button", name="Preview the widget").click()
        page.frame_locator("[data-part=widget-preview]").locator(".launcher").wait_for()
        view.shot("06-widget")
        view.axe("widget")
        return {"snippet": snippet}

    seen = browser.run(make_a_widget_id)
    widget = WidgetId.objects.get(guru=guru)
    assert widget.domain_pattern == origin
    assert seen["snippet"] == (
        f'<script src="{api}/widget.js" data-widget-id="{widget.key}" '
        f'data-mode="button" data-theme="auto" data-name="{NAME}"></script>'
    )

    assert view.dialogs == [] and view.errors == []
    expected = ["sign-in", "new-guru", "sources", "analytics", "keys", "widget"]
    assert list(view.a11y) == expected
    found = "\n".join(f"{name}: {line}" for name, lines in view.a11y.items() for line in lines)
    assert not found, f"axe-core found serious or critical violations:\n{found}"
