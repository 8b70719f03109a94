"""Fixtures shared with the answer and browser tests: a guru with three indexed pages, and the
ASGI app under uvicorn for the whole module (the UI server started once points at it)."""

from tests.answers.conftest import python_guru  # noqa: F401
from tests.browser.qa.conftest import live_api  # noqa: F401
