"""A reader who asks before the widget's first call (its guru) has come back: the greeting that
call brings must not replace the conversation already on screen."""

import pytest

from tests.answers.test_answer_engine import IN_SCOPE
from tests.browser.answers_shown import wait_for_trust
from tests.browser.conftest import embed
from tests.browser.test_widget import open_panel

pytestmark = pytest.mark.django_db(transaction=True)

GURU_CALL = "**/api/widget/guru/"


def test_a_question_asked_before_the_guru_loads_is_answered_on_screen(
    chromium, tab, live_asgi, host_site, widget_key
):
    url = embed(host_site, live_asgi, widget_key)

    def scenario() -> dict:
        page = tab.page
        held: list = []
        # The guru call waits until the question is asked.
        page.route(GURU_CALL, lambda route: held.append(route))
        open_panel(page, url)
        page.get_by_label("Your question").fill(IN_SCOPE)
        page.keyboard.press("Enter")
        page.locator(".question").wait_for()
        while not held:
            page.wait_for_timeout(50)
        held[0].continue_()
        wait_for_trust(page, timeout=30_000)
        return {
            "questions": page.locator(".question").all_inner_texts(),
            "answer": page.locator("[data-part=answer]").inner_text(),
            "intro": page.locator(".intro").count(),
        }

    seen = chromium.run(scenario)
    assert seen["questions"] == [IN_SCOPE]
    assert "venv" in seen["answer"]
    assert seen["intro"] == 0
