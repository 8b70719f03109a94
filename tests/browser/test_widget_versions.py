"""The widget's version selector in Chromium against the real backend: a guru whose sources
carry two version labels shows a selector in the widget's header, and each answer cites only
the version chosen there."""

import pytest
from openguru.sources.models import DataSource

from tests.answers.conftest import page_url
from tests.browser.conftest import embed
from tests.browser.test_widget import ask, open_panel

pytestmark = pytest.mark.django_db(transaction=True)

EXCEPTIONS = "How do I handle exceptions with try and except?"
VENV = "How do I create a virtual environment with venv?"


def test_the_selector_chooses_the_version_each_answer_cites(
    chromium, tab, live_asgi, host_site, widget_key, llm_server
):
    DataSource.objects.filter(url=page_url("Virtual environments")).update(version="3.12")
    DataSource.objects.filter(url=page_url("Exceptions")).update(version="3.11")
    url = embed(host_site, live_asgi, widget_key)

    def scenario() -> dict:
        page = tab.page
        open_panel(page, url)
        selector = page.get_by_label("Version")
        selector.wait_for()
        seen: dict = {"offered": selector.locator("option").all_inner_texts()}
        seen["first"] = selector.input_value()
        selector.select_option("3.11")
        ask(page, EXCEPTIONS, 1)
        selector.select_option("3.12")
        ask(page, VENV, 2)
        answers = page.locator("article.answer")
        for n in (0, 1):
            seen[n] = (
                answers.nth(n)
                .locator("[data-part=references] a")
                .evaluate_all("links => links.map(a => a.href.split('#')[0])")
            )
        return seen

    seen = chromium.run(scenario)
    assert seen["offered"] == ["3.12", "3.11"] and seen["first"] == "3.12"
    assert page_url("Exceptions") in seen[0], seen
    assert page_url("Virtual environments") not in seen[0], seen
    assert page_url("Virtual environments") in seen[1], seen
    assert page_url("Exceptions") not in seen[1], seen
    sent = [(body.get("version"), body.get("fetch_existing")) for body in tab.asks]
    assert ("3.11", False) in sent and ("3.12", False) in sent
    assert not tab.dialogs
