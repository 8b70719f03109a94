"""The Q&A site (Next.js) in Chromium against the real backend: `next dev` on a free port, its
/api rewrite and server components pointed at the ASGI app under uvicorn, and the loopback LLM
(the main flow also runs without an LLM, on extractive answers). axe-core checks the home, guru,
binge and question pages for serious and critical accessibility violations."""

import json
import re
import threading
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
import uvicorn
from benchmarks.chromium import BrowserThread
from django.core.cache import cache
from openguru.answers.models import Binge, Question, Vote
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.lite_server import free_port, wait_for_port
from openguru.sources.services import source_create
from playwright.sync_api import Page

from tests.answers.conftest import stream_calls
from tests.answers.test_answer_engine import IN_SCOPE
from tests.browser.next_site import FRONTEND, NextSite
from tests.conftest import clear_provider_caches
from tests.gurus.helpers import guru_make

pytestmark = pytest.mark.django_db(transaction=True)

FOLLOW_UP = "How do I activate the virtual environment before installing packages?"

# Records the streaming answer's text each time it changes while it is still streaming.
RECORD_PARTIALS = """() => {
  window.partials = [];
  new MutationObserver(() => {
    const busy = document.querySelector('[data-part=answer][aria-busy=true]');
    if (!busy) return;
    const text = busy.textContent.trim();
    if (text && !text.startsWith('Thinking') && window.partials.at(-1) !== text) {
      window.partials.push(text);
    }
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


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


AXE_JS = FRONTEND / "node_modules/axe-core/axe.min.js"

# The serious and critical axe-core violations on the page, one readable line per element.
AXE_RUN = """async () => {
  const {violations} = await axe.run(document);
  return violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .flatMap(v => v.nodes.map(n =>
      `${v.impact} ${v.id}: ${v.help} at ${n.target.join(' ')}: ${n.failureSummary}`));
}"""


class Tab:
    def __init__(self, page: Page, shots: Path) -> None:
        self.page = page
        self.shots = shots
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.a11y: dict[str, list[str]] = {}  # page name -> axe-core's serious/critical findings

    def shot(self, name: str) -> None:
        # caret="initial": hiding the caret styles inputs, which React would see as a mismatch.
        self.page.screenshot(path=str(self.shots / f"{name}.png"), full_page=True, caret="initial")

    def axe(self, name: str) -> None:
        if not AXE_JS.is_file():
            pytest.fail(f"{AXE_JS} is missing: run `npm ci` in frontend/")
        self.page.add_script_tag(path=str(AXE_JS))
        self.a11y[name] = self.page.evaluate(AXE_RUN)


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


def lead(markdown: str) -> str:
    """The answer's first words as the page shows them: before the first link, without
    markdown's emphasis and quote marks."""
    text = re.sub(r"[_*>`]", "", markdown.split("[")[0])
    return " ".join(text.split())[:40]


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


def test_ask_stream_vote_follow_up_and_the_binge_map(
    chromium, tab, site, python_guru: Guru, answerer: str
):
    def ask_and_vote() -> dict:
        page = tab.page
        page.goto(f"{site.origin}/")
        tab.shot("01-home")
        tab.axe("home")
        page.get_by_role("link", name=re.compile("Python")).click()
        page.wait_for_url("**/g/python")
        page.get_by_label("Ask Python a question").wait_for()
        tab.shot("02-guru")
        tab.axe("guru")
        page.evaluate(RECORD_PARTIALS)
        page.get_by_label("Ask Python a question").fill(IN_SCOPE)
        page.keyboard.press("Enter")
        page.locator("[data-part=references] a").first.wait_for()
        refs_while_streaming = page.locator("[data-part=answer][aria-busy=true]").count()
        tab.shot("03-streaming")
        page.locator("[data-part=trust]").wait_for(timeout=30_000)
        tab.shot("04-answered")
        seen = {
            "partials": page.evaluate("window.partials"),
            "refs_while_streaming": refs_while_streaming,
            "answer": page.locator("[data-part=answer]").inner_text(),
            "refs": page.locator("[data-part=references] a").evaluate_all(
                "links => links.map(a => [a.textContent, a.href, a.rel])"
            ),
            "trust": page.locator("[data-part=trust]").inner_text(),
            "permalink": page.locator("[data-part=permalink]").get_attribute("href"),
        }
        page.locator("[data-vote=upvote]").click()
        page.get_by_text("Thanks for your vote.").wait_for()
        tab.shot("05-voted")
        return seen

    seen = chromium.run(ask_and_vote)
    root = Question.objects.get()
    assert root.extractive is (answerer == "extractive")
    partials = seen["partials"]
    if answerer == "llm":
        assert len(set(partials)) >= 2, partials  # the answer grew on screen, token by token
        assert len(partials[0]) < len(partials[-1]), partials
        assert seen["refs_while_streaming"] == 1  # sources were shown before the answer finished
    else:
        # Without an LLM the whole answer is one delta: there is nothing to see grow. What is
        # seen instead is the label that says so and the quotes, each citing its page.
        assert "Extracted from the sources" in seen["answer"]
        assert "python -m venv" in seen["answer"]
        assert root.references and all(r["link"] in root.content for r in root.references)
    assert lead(root.content) in " ".join(seen["answer"].split())
    assert {link for _, link, _ in seen["refs"]} <= {r["link"] for r in root.references}
    assert all("noopener" in rel for _, _, rel in seen["refs"])
    assert re.fullmatch(r"Trust score: \d+%", seen["trust"])
    assert seen["permalink"] == f"/g/python/{root.slug}"
    assert Vote.objects.get().vote_type == "upvote"

    def follow_up() -> dict:
        page = tab.page
        page.get_by_label("Ask a follow-up").fill(FOLLOW_UP)
        page.keyboard.press("Enter")
        page.wait_for_url("**/g/python/b/**", timeout=30_000)
        page.locator("[data-part=turn]").nth(1).wait_for()
        page.locator("[data-part=turn]").nth(1).locator("[data-part=trust]").wait_for(
            timeout=30_000
        )
        tab.shot("06-binge")
        tab.axe("binge")
        map_links = page.locator("[data-part=map] a").evaluate_all(
            "links => links.map(a => a.textContent)"
        )
        turns = page.locator("[data-part=turn] h2").all_inner_texts()
        page.locator("[data-part=map] a").first.click()
        page.wait_for_url(f"**/g/python/{root.slug}")
        page.locator("h1").get_by_text(root.question).wait_for()
        tab.shot("07-question")
        page.reload()
        page.locator("h1").get_by_text(root.question).wait_for()
        tab.shot("08-reloaded")
        tab.axe("question")
        return {
            "url": page.url,
            "map": map_links,
            "turns": turns,
            "answer": page.locator("[data-part=answer]").first.inner_text(),
        }

    seen = chromium.run(follow_up)
    child = Question.objects.exclude(pk=root.pk).get()
    binge = Binge.objects.get()
    assert child.binge_id == binge.pk and binge.root_question_id == root.pk
    assert child.parent_id == root.pk
    questions = [" ".join(q.question.split()) for q in (root, child)]  # as the page lays text out
    assert [" ".join(text.split()) for text in seen["map"]] == questions
    assert [" ".join(text.split()) for text in seen["turns"]] == questions
    assert seen["url"].endswith(f"/g/python/{root.slug}")
    assert lead(root.content) in " ".join(seen["answer"].split())
    assert tab.dialogs == [] and tab.errors == []
    assert list(tab.a11y) == ["home", "guru", "binge", "question"]
    found = "\n".join(f"{name}: {line}" for name, lines in tab.a11y.items() for line in lines)
    assert not found, f"axe-core found serious or critical violations:\n{found}"


# Where the answer's card is on screen, and whether the page shows the question's heading.
CARD_TOP = "() => document.querySelector('[data-part=answer-card]').getBoundingClientRect().top"


def test_on_a_phone_the_answer_comes_into_view_the_lists_refresh_and_a_vote_stays(
    chromium, tab, site, python_guru: Guru, llm_server
):
    def ask_on_a_phone() -> dict:
        page = tab.page
        page.set_viewport_size({"width": 390, "height": 700})
        page.goto(f"{site.origin}/g/python")
        known = page.locator("[data-part=known-sources]").inner_text()
        recent = page.locator("section", has=page.get_by_role("heading", name="Recent questions"))
        empty_before = recent.get_by_text("No questions yet.").count()
        page.get_by_label("Ask Python a question").fill(IN_SCOPE)
        page.keyboard.press("Enter")
        page.locator("[data-part=answer-card] h2").wait_for()
        page.wait_for_timeout(300)
        top = page.evaluate(CARD_TOP)
        page.locator("[data-part=trust]").wait_for(timeout=30_000)
        # The page's own lists are the server's: they catch up once the answer is saved.
        recent.get_by_role("link", name=IN_SCOPE).wait_for(timeout=15_000)
        tab.axe("guru-answered")
        page.locator("[data-vote=upvote]").click()
        page.get_by_text("Thanks for your vote.").wait_for()
        page.get_by_label("Ask a follow-up").fill(FOLLOW_UP)
        page.keyboard.press("Enter")
        page.wait_for_url("**/g/python/b/**", timeout=30_000)
        first = page.locator("[data-part=turn]").first
        first.locator("[data-vote=upvote]").wait_for()
        page.wait_for_timeout(300)
        return {
            "known": known,
            "empty_before": empty_before,
            "top": top,
            "height": page.viewport_size["height"] if page.viewport_size else 0,
            "pressed": first.locator("[data-vote=upvote]").get_attribute("aria-pressed"),
        }

    seen = chromium.run(ask_on_a_phone, timeout=120)
    # What the guru knows, by title (each with its kind), not only counted by kind.
    titles = ("Exceptions", "List comprehensions", "Virtual environments")
    assert all(title in seen["known"] for title in titles), seen["known"]
    assert seen["empty_before"] == 1
    assert 0 <= seen["top"] < seen["height"] / 2, seen  # the answer, not the ask box, in view
    assert seen["pressed"] == "true"  # the up-vote is still ours in the conversation view
    assert tab.errors == []
    found = [line for lines in tab.a11y.values() for line in lines]
    assert not found, "axe-core found serious or critical violations:\n" + "\n".join(found)


def test_html_in_a_cited_source_never_runs_in_the_page(
    chromium, tab, site, python_guru: Guru, llm_server
):
    source_create(
        guru=python_guru,
        type="text",
        url="https://docs.example.org/markup.html",
        title="Markup <img src=x onerror=alert(3)>",
        content=(
            "# Markup\n\nThe markup sanitizer keeps <img src=x onerror=alert(1)> and "
            "<script>alert(2)</script> and [x](javascript:alert(4)) as text in markup "
            "sanitizer pages. Nothing else.\n"
        ),
    )
    question = "What does the markup sanitizer keep in markup sanitizer pages?"
    injected = """() => ({
      handlers: document.querySelectorAll('[onerror], [onload], [onclick]').length,
      images: document.querySelectorAll('main img[src="x"]').length,
      scripts: [...document.querySelectorAll('main script')]
        .filter(s => s.type !== 'application/ld+json').length,
      js_links: [...document.querySelectorAll('a')]
        .filter(a => a.getAttribute('href')?.replace(/\\s/g, '').toLowerCase()
        .startsWith('javascript:')).length,
      answer: document.querySelector('[data-part=answer]').textContent,
      refs: [...document.querySelectorAll('[data-part=references] li')].map(li => li.textContent),
    })"""

    def scenario() -> dict:
        page = tab.page
        page.goto(f"{site.origin}/g/python")
        page.get_by_label("Ask Python a question").fill(question)
        page.keyboard.press("Enter")
        page.locator("[data-part=trust]").wait_for(timeout=30_000)
        page.wait_for_timeout(500)  # an onerror handler would have fired by now
        streamed = page.evaluate(injected)
        tab.shot("xss-streamed")
        page.goto(site.origin + (page.locator("[data-part=permalink]").get_attribute("href") or ""))
        page.wait_for_timeout(500)
        tab.shot("xss-question-page")
        return {"streamed": streamed, "stored": page.evaluate(injected)}

    seen = chromium.run(scenario)
    answer = Question.objects.get().content
    assert "onerror=alert(1)" in answer and "<script>alert(2)</script>" in answer  # it was cited
    assert "javascript:alert(4)" in answer
    assert tab.dialogs == []
    for where, found in seen.items():
        assert found["handlers"] == 0, where
        assert found["images"] == 0, where
        assert found["scripts"] == 0, where
        assert found["js_links"] == 0, where
        assert "<script>alert(2)</script>" in found["answer"], where  # shown as text
        assert any("onerror=alert(3)" in ref for ref in found["refs"]), where


class _Head(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.canonical = ""
        self.json_ld: list[str] = []
        self._in_json_ld = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "meta" and ("name" in a or "property" in a):
            self.meta[a.get("name") or a["property"]] = a.get("content", "")
        elif tag == "link" and a.get("rel") == "canonical":
            self.canonical = a.get("href", "")
        elif tag == "script" and a.get("type") == "application/ld+json":
            self._in_json_ld = True
            self.json_ld.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_json_ld = False

    def handle_data(self, data: str) -> None:
        if self._in_json_ld:
            self.json_ld[-1] += data


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
    head = _Head()
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
        page.locator("[data-part=trust]").wait_for(timeout=30_000)
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
