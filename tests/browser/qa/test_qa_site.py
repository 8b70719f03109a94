"""The Q&A site (Next.js) in Chromium against the real backend: `next dev` on a free port, its
/api rewrite and server components pointed at the ASGI app under uvicorn, and the loopback LLM
(the main flow also runs without an LLM, on extractive answers). axe-core checks the home, guru,
binge and question pages for serious and critical accessibility violations. The servers and
the tab are in conftest.py."""

import re

import pytest
from openguru.answers.models import Binge, Question, Vote
from openguru.gurus.models import Guru
from openguru.sources.services import source_create

from tests.answers.test_answer_engine import IN_SCOPE
from tests.browser.answers_shown import wait_for_trust
from tests.browser.qa.helpers import RECORD_PARTIALS, lead

pytestmark = pytest.mark.django_db(transaction=True)

FOLLOW_UP = "How do I activate the virtual environment before installing packages?"


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
        wait_for_trust(page, timeout=30_000)
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
        # seen instead is the label that says so and the quotes, each citing its source's number.
        assert "Extracted from the sources" in seen["answer"]
        assert "python -m venv" in seen["answer"]
        numbers = range(1, len(root.references) + 1)
        assert root.references and all(f"[{n}]" in root.content for n in numbers)
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
        wait_for_trust(page, timeout=30_000)
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
        wait_for_trust(page, timeout=30_000)
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
