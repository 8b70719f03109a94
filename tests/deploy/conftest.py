"""Fixtures shared with the answer tests: a guru with three indexed pages. (The ASGI app under
uvicorn and the UI's servers are the shared ones in tests/live_servers.py.)"""

from tests.answers.conftest import python_guru  # noqa: F401
