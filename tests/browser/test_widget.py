"""The embeddable widget in Chromium against the real backend: a host page on one loopback port
loads /widget.js from the API's port and asks through the widget endpoints."""

import re

import httpx
import pytest
from openguru.answers.models import Question, Vote
from openguru.sources.services import source_create

from tests.answers.test_answer_engine import IN_SCOPE
from tests.browser.answers_shown import wait_for_trust
from tests.browser.conftest import embed

pytestmark = pytest.mark.django_db(transaction=True)

SHADOW = "document.querySelector('openguru-widget').shadowRoot"

# Records the answer element's text each time it changes while the answer is still streaming.
RECORD_PARTIALS = f"""() => {{
  const root = {SHADOW};
  window.partials = [];
  new MutationObserver(() => {{
    const answers = root.querySelectorAll('[data-part=answer]');
    const last = answers[answers.length - 1];
    if (!last || last.getAttribute('aria-busy') !== 'true') return;
    const text = last.textContent.trim();
    if (text && text !== 'Thinking' && window.partials[window.partials.length - 1] !== text) {{
      window.partials.push(text);
    }}
  }}).observe(root, {{subtree: true, childList: true, characterData: true, attributes: true}});
}}"""

FOCUSED = f"() => {{ const a = {SHADOW}.activeElement; return a ? a.className || a.tagName : ''; }}"


def ask(page, question: str, nth: int) -> None:
    """Types a question and waits until the `nth` answer (from 1) shows its trust score."""
    page.get_by_label("Your question").fill(question)
    page.keyboard.press("Enter")
    wait_for_trust(page, timeout=30_000, nth=nth)


def open_panel(page, url: str) -> None:
    page.goto(url)
    page.locator(".launcher").click()
    page.get_by_label("Your question").wait_for()


def test_an_answer_renders_while_it_streams_then_shows_sources_and_trust(
    chromium, tab, live_asgi, host_site, widget_key, llm_server
):
    llm_server.token_ms = 60
    url = embed(host_site, live_asgi, widget_key)

    def scenario() -> dict:
        page = tab.page
        open_panel(page, url)
        page.evaluate(RECORD_PARTIALS)
        ask(page, IN_SCOPE, 1)
        return {
            "partials": page.evaluate("window.partials"),
            "answer": page.locator("[data-part=answer]").inner_text(),
            "title": page.locator("article.answer h3").inner_text(),
            "refs": page.locator("[data-part=references] a").evaluate_all(
                "links => links.map(a => [a.textContent, a.href, a.target, a.rel])"
            ),
            "trust": page.locator("[data-part=trust]").inner_text(),
            "answer_link_rel": page.locator("[data-part=answer] a").first.get_attribute("rel"),
        }

    seen = chromium.run(scenario)
    question = Question.objects.get()
    # At least two different partial renders were on screen before the answer was complete.
    partials = seen["partials"]
    assert len(set(partials)) >= 2, partials
    assert len(partials[0]) < len(partials[-1]) <= len(seen["answer"]), partials
    assert question.content.split("[")[0].strip() in seen["answer"]
    assert seen["title"]
    assert seen["refs"], "no references shown"
    assert {link for _, link, _, _ in seen["refs"]} <= {r["link"] for r in question.references}
    assert all(target == "_blank" and "noopener" in rel for _, _, target, rel in seen["refs"])
    assert seen["answer_link_rel"] and "noopener" in seen["answer_link_rel"]
    assert seen["trust"].startswith("Trust score: ") and seen["trust"].endswith("%")


def test_a_follow_up_continues_the_binge_and_a_vote_is_recorded(
    chromium, tab, live_asgi, host_site, widget_key, llm_server
):
    url = embed(host_site, live_asgi, widget_key)

    def first() -> None:
        open_panel(tab.page, url)
        ask(tab.page, IN_SCOPE, 1)

    def follow_up_and_vote() -> list[str]:
        page = tab.page
        chips = page.locator("[data-part=suggestions] button").nth(0)
        chips.wait_for()
        suggested = page.locator("[data-part=suggestions] button").all_inner_texts()
        ask(page, "How do I activate the virtual environment before installing packages?", 2)
        votes = page.locator("[data-part=votes]").nth(1)
        votes.locator("[data-vote=downvote]").click()
        votes.get_by_label("Feedback (optional)").fill("Show the Windows command too.")
        votes.get_by_role("button", name="Send").click()
        votes.get_by_text("Thanks for your feedback.").wait_for()
        return suggested

    def click_a_suggestion(text: str) -> None:
        page = tab.page
        page.locator("[data-part=suggestions] button").get_by_text(text).first.click()
        page.locator(".question").nth(2).wait_for()
        page.locator("[data-part=answer]").nth(2).and_(page.locator("[aria-busy=false]")).wait_for(
            timeout=30_000
        )

    chromium.run(first)
    root = Question.objects.get()
    assert root.binge_id is None
    suggested = chromium.run(follow_up_and_vote)
    root.refresh_from_db()
    assert suggested and suggested == root.follow_up_examples

    follow_up = Question.objects.exclude(pk=root.pk).get()
    # The stream, then the saved answer: the same body, first without and then with
    # fetch_existing; the follow-up names the session and the answer it follows.
    first_ask, first_saved, follow_ask, follow_saved = tab.asks
    assert first_ask == {**first_saved, "fetch_existing": False}
    assert first_ask["binge_id"] is None and first_ask["parent_slug"] is None
    assert follow_ask == {**follow_saved, "fetch_existing": False}
    assert follow_ask["binge_id"] == str(follow_up.binge_id)
    assert follow_ask["parent_slug"] == root.slug
    assert follow_up.binge_id is not None
    assert follow_up.binge.root_question_id == root.pk
    assert follow_up.source == Question.Source.WIDGET
    assert follow_up.parent_id == root.pk
    vote = Vote.objects.get()
    assert (vote.question_id, vote.vote_type) == (follow_up.pk, "downvote")
    assert vote.feedback == "Show the Windows command too."

    # A suggested question is asked with one click, in the same session.
    chromium.run(click_a_suggestion, suggested[0])
    assert tab.asks[-1]["question"] == suggested[0]
    assert tab.asks[-1]["binge_id"] == str(follow_up.binge_id)


def test_a_site_outside_the_widget_ids_domains_gets_an_error_in_words(
    chromium, tab, live_asgi, other_site, widget_key, caplog
):
    url = embed(other_site, live_asgi, widget_key)

    def scenario() -> str:
        page = tab.page
        page.goto(url)
        page.locator(".launcher").click()
        error = page.locator("[data-part=error]")
        error.wait_for()
        assert error.get_by_role("button", name="Retry").is_visible()
        return error.inner_text()

    message = chromium.run(scenario)
    assert re.search(r"not (be )?allowed|may not be used", message), message
    # The backend refuses that origin: at the CORS preflight (a logged 401 with no grant), so
    # the browser never sends the call, and with a 401 if a client sends it anyway.
    assert tab.failed == ["widget/guru/"] and "widget/guru/" not in tab.statuses
    assert "Widget origin refused: /api/widget/guru/" in caplog.text
    direct = httpx.get(
        f"{live_asgi}/api/widget/guru/",
        headers={"Authorization": widget_key, "Origin": other_site.origin},
    )
    assert direct.status_code == 401 and direct.json()["msg"]
    assert not Question.objects.exists()


def test_html_in_a_cited_source_never_runs_in_the_page_and_shows_as_text(
    chromium, tab, live_asgi, host_site, widget_key, python_guru, llm_server
):
    # As on the site: markup in an answer is text, so a placeholder such as `<release-id>` in a
    # quoted command line stays on screen instead of vanishing as an unknown tag.
    source_create(
        guru=python_guru,
        type="text",
        url="https://docs.example.org/markup.html",
        title="Markup <img src=x onerror=alert(3)>",
        content=(
            "# Markup\n\nThe markup sanitizer keeps <img src=x onerror=alert(1)>, "
            "<script>alert(2)</script> and rollback --to <release-id> as text in markup "
            "sanitizer pages. Nothing else.\n"
        ),
    )
    url = embed(host_site, live_asgi, widget_key)

    def scenario() -> dict:
        page = tab.page
        open_panel(page, url)
        ask(page, "What does the markup sanitizer keep in markup sanitizer pages?", 1)
        page.wait_for_timeout(500)  # an onerror handler would have fired by now
        return page.evaluate(
            f"""() => {{
              const root = {SHADOW};
              return {{
                handlers: root.querySelectorAll('[onerror], [onload], [onclick]').length,
                scripts: root.querySelectorAll('script').length + document.scripts.length,
                images: root.querySelectorAll('[data-part=answer] img').length,
                text: root.querySelector('[data-part=answer]').textContent,
                refs: [...root.querySelectorAll('[data-part=references] a')].map(a => a.textContent),
              }};
            }}"""
        )

    seen = chromium.run(scenario)
    answer = Question.objects.get().content
    assert "onerror=alert(1)" in answer and "<script>alert(2)</script>" in answer  # it was cited
    assert tab.dialogs == []
    assert seen["handlers"] == 0
    assert seen["scripts"] == 1  # the host page's widget tag, nothing injected
    assert seen["images"] == 0
    assert "--to <release-id>" in seen["text"], seen["text"]
    assert "<img src=x onerror=alert(1)>" in seen["text"]
    assert any("onerror=alert(3)" in ref for ref in seen["refs"])  # a title is only ever text


def test_the_keyboard_opens_traps_focus_and_closes(chromium, tab, live_asgi, host_site, widget_key):
    url = embed(host_site, live_asgi, widget_key)

    def scenario() -> dict:
        page = tab.page
        page.goto(url)
        page.locator(".launcher").wait_for()
        page.keyboard.press("Tab")
        on_launcher = page.evaluate(FOCUSED)
        page.keyboard.press("Enter")
        dialog = page.get_by_role("dialog")
        dialog.wait_for()
        opened = {"modal": dialog.get_attribute("aria-modal"), "focus": page.evaluate(FOCUSED)}
        trapped = []
        for _ in range(6):
            page.keyboard.press("Tab")
            trapped.append(
                page.evaluate(
                    f"() => {SHADOW}.querySelector('.panel').contains({SHADOW}.activeElement)"
                )
            )
        page.keyboard.press("Escape")
        dialog.wait_for(state="hidden")
        return {
            "on_launcher": on_launcher,
            "opened": opened,
            "trapped": trapped,
            "after": page.evaluate(FOCUSED),
            "label": page.locator(".launcher").get_attribute("aria-label"),
        }

    seen = chromium.run(scenario)
    assert seen["on_launcher"] == "launcher"
    assert seen["label"] == "Ask Python"
    assert seen["opened"] == {"modal": "true", "focus": "TEXTAREA"}
    assert all(seen["trapped"])
    assert seen["after"] == "launcher"


def test_the_panel_fills_a_phone_screen(chromium, tab, live_asgi, host_site, widget_key):
    url = embed(host_site, live_asgi, widget_key)

    def scenario() -> dict:
        page = tab.page
        page.set_viewport_size({"width": 375, "height": 700})
        open_panel(page, url)
        return page.locator(".panel").bounding_box()

    box = chromium.run(scenario)
    assert (box["x"], box["y"], box["width"], box["height"]) == (0, 0, 375, 700)


def test_a_failed_answer_says_so_in_words_and_retry_asks_again(
    chromium, tab, live_asgi, host_site, widget_key, llm_server
):
    url = embed(host_site, live_asgi, widget_key)
    llm_server.fail_all(400)

    def fail() -> str:
        page = tab.page
        open_panel(page, url)
        page.get_by_label("Your question").fill(IN_SCOPE)
        page.keyboard.press("Enter")
        error = page.locator("[data-part=answer] [role=alert]")
        # As long as an answer may take (`ask`): the failure travels the same stream and then
        # the saved-answer lookup, both of which queue behind other work on a busy machine.
        error.wait_for(timeout=60_000)
        return error.locator("p").inner_text()

    def retry() -> int:
        page = tab.page
        page.get_by_role("button", name="Retry").click()
        wait_for_trust(page, timeout=30_000)
        return page.locator("article.answer").count()

    message = chromium.run(fail)
    assert not Question.objects.exists()
    llm_server.fail_all(None)
    answers = chromium.run(retry)
    # The engine's own words for the failure end the stream; no answer was saved.
    assert message.startswith("The answer could not be completed."), message
    assert "language model" in message, message
    assert answers == 1  # the failed attempt was replaced, not kept beside the answer
    assert Question.objects.get().question
    # The failed stream and its missing saved answer, then the retry's stream and answer.
    assert [(b["question"], b["fetch_existing"]) for b in tab.asks] == [
        (IN_SCOPE, False),
        (IN_SCOPE, True),
    ] * 2
