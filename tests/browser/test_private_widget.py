"""A private guru's widget in Chromium: the host page carries a token its server signed with
the widget id's secret, the widget sends it (through CORS) and answers; the same page without
the token gets the private guru's refusal, not an answer."""

import time

import pytest
from openguru.gurus.models import Guru, Visibility
from openguru.integrations.widget.services import widget_id_create, widget_secret_rotate
from openguru.integrations.widget.tokens import widget_token_make

from tests.answers.test_answer_engine import IN_SCOPE
from tests.browser.conftest import embed
from tests.browser.test_widget import ask, open_panel

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_signed_page_asks_a_private_guru_and_an_unsigned_one_cannot(
    chromium, tab, live_asgi, host_site, python_guru: Guru
):
    Guru.objects.filter(pk=python_guru.pk).update(visibility=Visibility.PRIVATE)
    widget = widget_id_create(guru=python_guru, domain_pattern=host_site.origin)
    _, secret = widget_secret_rotate(guru=python_guru, widget_id=widget.pk)
    token = widget_token_make(secret=secret, user_id="reader-7", expires=int(time.time()) + 600)

    def signed() -> str:
        open_panel(tab.page, embed(host_site, live_asgi, widget.key, **{"data-token": token}))
        ask(tab.page, IN_SCOPE, 1)
        return tab.page.locator("[data-part=answer]").inner_text()

    assert "venv" in chromium.run(signed)
    assert set(tab.statuses["widget/ask/"]) == {200}  # the stream, then its stored copy

    def unsigned() -> None:
        tab.page.goto(embed(host_site, live_asgi, widget.key))
        tab.page.wait_for_timeout(1500)  # the widget's first call (its guru) has come back

    chromium.run(unsigned)
    assert 401 in tab.statuses["widget/guru/"]
