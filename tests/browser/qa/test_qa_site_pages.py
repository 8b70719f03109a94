"""The Q&A site's pages in Chromium against the real backend: a question page's HTML before any
JavaScript, refusals, stale answers, stopping and retrying, and a phone's width in the dark
scheme by keyboard. The servers and the tab are in conftest.py."""

import json
import time

import httpx
import pytest
from django.core.cache import cache
from openguru.answers.models import Question
from openguru.gurus.models import Guru
from openguru.sources.services import source_create

from tests.answers.conftest import stream_calls
from tests.answers.test_answer_engine import IN_SCOPE
from tests.browser.answers_shown import wait_for_trust
from tests.browser.qa.helpers import PageHead
from tests.gurus.helpers import guru_make

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_question_page_is_complete_html_before_any_javascript(
    site, python_guru: Guru, llm_server, live_api
):
    # The answer text holds `</script>`: JSON-LD must not end early because of it.
    source_create(
        guru=python_guru,
        type="text",
        url="https://docs.example.org/scripts.html",
        title="Script tags",
        content="# Script tags\n\nA script tag ends with </script> in script tag pages. Done.\n",
    )
    url = f"{live_api}/api/gurus/python/answer/"
    asked = httpx.post(url, json={"question": "How does a script tag end in script tag pages?"})
    assert asked.status_code == 200, asked.text
    question = Question.objects.get()
    assert "</script>" in question.content

    response = httpx.get(f"{site.origin}/g/python/{question.slug}", timeout=60)
    assert response.status_code == 200
    html = response.text
    head = PageHead()
    head.feed(html)
    assert question.question in html
    assert "A script tag ends with" in html
    assert head.meta["description"]
    assert head.meta["og:title"] == question.question
    assert head.canonical == f"{site.origin}/g/python/{question.slug}"
    assert len(head.json_ld) == 1
    ld = json.loads(head.json_ld[0])
    assert ld["@type"] == "QAPage"
    assert ld["mainEntity"]["name"] == question.question
    assert ld["mainEntity"]["acceptedAnswer"]["text"] == question.content

    sitemap = httpx.get(f"{site.origin}/sitemap.xml", timeout=60)
    assert f"{site.origin}/g/python/{question.slug}" in sitemap.text
    robots = httpx.get(f"{site.origin}/robots.txt", timeout=60).text
    assert f"Sitemap: {site.origin}/sitemap.xml" in robots


def test_a_refusal_says_why_in_words(chromium, tab, site, python_guru: Guru, llm_server):
    # A guru with nothing indexed refuses whatever the model would say.
    guru_make(slug="new", name="New", domain_knowledge="Not indexed yet")

    def scenario() -> dict:
        page = tab.page
        page.goto(f"{site.origin}/g/new")
        page.get_by_label("Ask New a question").fill(IN_SCOPE)
        page.get_by_role("button", name="Ask", exact=True).click()
        refusal = page.locator("[data-part=refusal]")
        refusal.wait_for(timeout=30_000)
        page.locator("[data-part=answer][aria-busy=false]").wait_for()
        tab.shot("refusal")
        return {
            "text": refusal.inner_text(),
            "votes": page.locator("[data-part=votes]").count(),
            "trust": page.locator("[data-part=trust]").count(),
        }

    seen = chromium.run(scenario)
    assert "could not answer that from its sources" in seen["text"]
    assert "has no sources" in seen["text"]  # the guru's own reason, in words
    assert seen["votes"] == 0 and seen["trust"] == 0
    assert stream_calls(llm_server) == []


def test_a_stale_answer_is_refreshed_in_place(
    chromium, tab, site, live_api, python_guru: Guru, llm_server
):
    asked = httpx.post(f"{live_api}/api/gurus/python/answer/", json={"question": IN_SCOPE})
    assert asked.status_code == 200, asked.text
    Question.objects.update(stale=True)  # what a changed source does to the answers citing it
    question = Question.objects.get()
    llm_server.token_ms = 60

    def scenario() -> dict:
        page = tab.page
        page.goto(f"{site.origin}/g/python/{question.slug}")
        notice = page.locator("[data-part=stale] [role=status]")
        notice.get_by_text("this answer is being refreshed").wait_for()
        tab.shot("stale-refreshing")
        notice.get_by_text("this answer was refreshed").wait_for(timeout=30_000)
        tab.shot("stale-refreshed")
        return {"trust": page.locator("[data-part=trust]").count()}

    seen = chromium.run(scenario)
    refreshed = Question.objects.get()  # the same question, answered again
    assert refreshed.pk == question.pk and refreshed.stale is False
    assert refreshed.updated_at > question.updated_at
    assert seen["trust"] == 1


def test_stop_then_an_error_in_words_then_retry(
    chromium, tab, site, python_guru: Guru, llm_server, settings
):
    # The second ask is over a visitor's hourly limit. Limits count in fixed windows: an hour's
    # (not a minute's) makes two asks seconds apart fall into one, unless started at its edge.
    settings.ANONYMOUS_ASKS_PER_HOUR = 1
    to_edge = 3600 - time.time() % 3600
    if to_edge < 120:
        time.sleep(to_edge + 1)
    cache.clear()
    llm_server.token_ms = 250

    def stop_then_limited() -> dict:
        page = tab.page
        page.goto(f"{site.origin}/g/python")
        page.get_by_label("Ask Python a question").fill(IN_SCOPE)
        page.keyboard.press("Enter")
        page.locator("[data-part=markdown] p").first.wait_for(timeout=30_000)
        page.get_by_role("button", name="Stop").click()
        page.get_by_text("Stopped.").wait_for()
        stopped = page.locator("[data-part=answer]").inner_text()
        page.wait_for_timeout(800)  # more tokens would have landed by now
        after = page.locator("[data-part=answer]").inner_text()
        page.get_by_role("button", name="Ask", exact=True).click()
        error = page.locator("[data-part=error][role=alert]")
        error.wait_for()
        tab.shot("rate-limited")
        return {"stopped": stopped, "after": after, "alert": error.inner_text()}

    def retry() -> int:
        page = tab.page
        page.get_by_role("button", name="Retry").click()
        wait_for_trust(page, timeout=30_000)
        return page.locator("[data-part=error]").count()

    seen = chromium.run(stop_then_limited)
    assert seen["stopped"] and seen["after"] == seen["stopped"]
    assert "Retry" in seen["alert"] and len(seen["alert"]) > len("Retry") + 10  # a reason in words
    settings.ANONYMOUS_ASKS_PER_HOUR = 0
    cache.clear()
    llm_server.token_ms = 20
    assert chromium.run(retry) == 0
    cache.clear()


def test_phone_width_dark_scheme_and_keyboard(chromium, site, python_guru: Guru, tmp_path):
    page = chromium.new_page(viewport={"width": 375, "height": 740}, color_scheme="dark")

    def scenario() -> dict:
        page.goto(f"{site.origin}/g/python")
        page.get_by_label("Ask Python a question").wait_for()
        page.screenshot(path=str(tmp_path / "phone-dark.png"), full_page=True, caret="initial")
        page.get_by_label("Ask Python a question").focus()
        page.keyboard.type("What is a list comprehension?")
        page.keyboard.press("Tab")
        return {
            "overflow": page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            ),
            "background": page.evaluate("getComputedStyle(document.body).backgroundColor"),
            "focused": page.evaluate("document.activeElement.textContent"),
            "outline": page.evaluate("getComputedStyle(document.activeElement).outlineStyle"),
        }

    try:
        seen = chromium.run(scenario)
    finally:
        chromium.close_page(page)
    assert seen["overflow"] == 0  # nothing wider than a phone
    assert seen["background"] == "rgb(13, 17, 23)"  # the dark palette
    assert seen["focused"] == "Ask" and seen["outline"] != "none"  # a visible focus ring
