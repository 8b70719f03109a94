"""The widget in Chromium: the citation numbers an answer shows are its sources list's."""

import pytest
from openguru.answers.models import Question

from tests.browser.citations import READ_CITATIONS, assert_citations_match
from tests.browser.conftest import embed
from tests.browser.test_widget import SHADOW, ask, open_panel

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("answerer", ["llm", "extractive"])
def test_the_numbers_in_a_widget_answer_are_its_sources(
    chromium, tab, live_asgi, host_site, widget_key, request, settings, answerer
):
    if answerer == "llm":
        request.getfixturevalue("llm_server")
    else:
        from tests.conftest import clear_provider_caches

        settings.LLM_PROVIDER = "none"
        clear_provider_caches()
        request.addfinalizer(clear_provider_caches)
    url = embed(host_site, live_asgi, widget_key)

    def scenario() -> dict:
        page = tab.page
        open_panel(page, url)
        ask(page, "How do I create and activate a virtual environment?", 1)
        return page.evaluate_handle(
            f"() => [{SHADOW}.querySelector('[data-part=answer]'),"
            f" {SHADOW}.querySelector('[data-part=references]')]"
        ).evaluate(READ_CITATIONS)

    seen = chromium.run(scenario)
    assert_citations_match(seen)
    saved = Question.objects.get()
    assert [link for _, link in seen["listed"]] == [r["link"] for r in saved.references]
