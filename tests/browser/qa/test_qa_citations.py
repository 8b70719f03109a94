"""The Q&A site in Chromium: the citation numbers an answer shows are its sources list's, with
an LLM and without one (extractive quotes)."""

import pytest
from openguru.answers.models import Question
from openguru.gurus.models import Guru

from tests.browser.answers_shown import wait_for_trust
from tests.browser.citations import READ_CITATIONS, assert_citations_match

pytestmark = pytest.mark.django_db(transaction=True)

QUESTION = "How do I create and activate a virtual environment before installing packages?"


def test_the_numbers_in_an_answer_are_its_sources(
    chromium, tab, site, python_guru: Guru, answerer: str, request: pytest.FixtureRequest
):
    if answerer == "llm":
        # Numbering, not streaming, is under test: at the main flow's token pace the two LLM
        # round trips of the default mode can outlast the wait on a loaded machine.
        request.getfixturevalue("llm_server").token_ms = 0

    def ask() -> dict:
        page = tab.page
        page.goto(f"{site.origin}/g/python")
        page.get_by_label("Ask Python a question").fill(QUESTION)
        page.keyboard.press("Enter")
        wait_for_trust(page, timeout=30_000)
        tab.shot(f"citations-{answerer}")
        return page.evaluate_handle(
            "() => [document.querySelector('[data-part=answer]'),"
            " document.querySelector('[data-part=references]')]"
        ).evaluate(READ_CITATIONS)

    seen = chromium.run(ask)
    assert_citations_match(seen)
    saved = Question.objects.get()
    assert [link for _, link in seen["listed"]] == [r["link"] for r in saved.references]
    assert tab.errors == []
