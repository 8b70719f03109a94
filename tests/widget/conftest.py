"""A guru with indexed pages, a widget id for it allowed on one site, and the ASGI app served by
uvicorn on loopback (the server `make run` uses): the widget's stream and its CORS headers
come from there as a browser would get them."""

import pytest
from openguru.gurus.models import Guru
from openguru.integrations.models import WidgetId
from openguru.integrations.widget.services import widget_id_create

from tests.answers.conftest import python_guru  # noqa: F401  (a guru with three indexed pages)
from tests.answers.test_streaming_http import live_asgi  # noqa: F401

SITE = "https://docs.example.com"


@pytest.fixture
def widget(python_guru: Guru) -> WidgetId:  # noqa: F811
    return widget_id_create(guru=python_guru, domain_pattern=SITE)


@pytest.fixture
def widget_headers(widget: WidgetId) -> dict[str, str]:
    """What the widget's page sends: the widget id, and the page's origin (the browser's)."""
    return {"Authorization": widget.key, "Origin": SITE}
