"""The Q&A site's version selector in Chromium against the real backend: a guru whose sources
carry two version labels offers both, and switching the selector makes the answer cite that
version's page only. The servers and the tab are in conftest.py."""

import pytest
from openguru.answers.models import Question

from tests.answers.test_versions import django_guru, page  # noqa: F401
from tests.browser.answers_shown import wait_for_trust

pytestmark = pytest.mark.django_db(transaction=True)

QUESTION = "How do I add middleware to the MIDDLEWARE setting?"


def test_the_version_selector_chooses_what_the_answer_cites(
    chromium,
    tab,
    site,
    django_guru,  # noqa: F811
    llm_server,
):
    site.warm("/g/django")

    def ask(version: str | None) -> dict:
        page_ = tab.page
        page_.goto(f"{site.origin}/g/django")
        selector = page_.get_by_label("Version")
        selector.wait_for()
        offered = selector.locator("option").all_inner_texts()
        chosen_first = selector.input_value()
        if version is not None:
            selector.select_option(version)
        page_.get_by_label("Ask Django a question").fill(QUESTION)
        page_.keyboard.press("Enter")
        wait_for_trust(page_, timeout=30_000)
        tab.shot(f"version-{version or 'default'}")
        links = page_.locator("[data-part=references] a").evaluate_all(
            "links => links.map(a => a.href)"
        )
        return {"offered": offered, "first": chosen_first, "links": links}

    seen = chromium.run(lambda: ask(None))
    assert seen["offered"] == ["5.0", "4.2"] and seen["first"] == "5.0"
    assert any(link.startswith(page("5.0")) for link in seen["links"]), seen
    assert not any(link.startswith(page("4.2")) for link in seen["links"]), seen

    seen = chromium.run(lambda: ask("4.2"))
    assert any(link.startswith(page("4.2")) for link in seen["links"]), seen
    assert not any(link.startswith(page("5.0")) for link in seen["links"]), seen
    assert sorted(Question.objects.values_list("version", flat=True)) == ["4.2", "5.0"]
    assert not tab.errors and not tab.dialogs
