"""A guru with a few indexed pages (the LLM stand-in fixture `llm_server` is in tests/conftest.py)."""

import pytest
from openguru.gurus.models import Guru
from openguru.gurus.services import guru_create
from openguru.sources.models import DataSource
from openguru.sources.services import source_create

from tests.fakes.openai_server import FakeOpenAIServer

PAGES = {
    "Virtual environments": (
        "Create a virtual environment with python -m venv myenv. Activate the virtual "
        "environment with source myenv/bin/activate before installing packages with pip."
    ),
    "List comprehensions": (
        "A list comprehension builds a list from an iterable: squares = [x * x for x in "
        "range(10)]. Comprehensions can filter items with an if clause."
    ),
    "Exceptions": (
        "Handle exceptions with try and except blocks. Raise an exception with the raise "
        "statement; finally clauses always run, even when an exception propagates."
    ),
}


def page_url(title: str) -> str:
    return f"https://docs.example.org/{title.lower().replace(' ', '-')}.html"


@pytest.fixture
def python_guru(transactional_db) -> Guru:
    guru = guru_create(slug="python", name="Python", domain_knowledge="The Python language")
    for title, text in PAGES.items():
        source_create(
            guru=guru,
            type="text",
            url=page_url(title),
            title=title,
            content=f"# {title}\n\n{text}\n",
        )
    assert set(DataSource.objects.filter(guru=guru).values_list("status", flat=True)) == {"SUCCESS"}
    return guru


def stream_calls(server: FakeOpenAIServer) -> list[dict]:
    """Answer calls: the streamed chat completions the server received."""
    return [
        r.body
        for r in server.requests
        if r.path.endswith("/chat/completions") and r.body.get("stream")
    ]


def json_calls(server: FakeOpenAIServer) -> list[dict]:
    return [
        r.body
        for r in server.requests
        if r.path.endswith("/chat/completions") and not r.body.get("stream")
    ]
