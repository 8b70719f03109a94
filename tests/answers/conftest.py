"""A guru with a few indexed pages (the LLM stand-in fixture `llm_server` is in tests/conftest.py)."""

import pytest
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource
from openguru.sources.services import source_create

from tests.conftest import clear_provider_caches
from tests.fakes.openai_server import FakeOpenAIServer
from tests.gurus.helpers import guru_make

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
    return _indexed_python_guru()


@pytest.fixture
def python_guru_embedded_over_http(transactional_db, settings, llm_server) -> Guru:
    """The same guru, its chunks and questions embedded by `llm_server` over HTTP (the in-process
    fake embedder answers before anything else can happen)."""
    settings.EMBEDDING_PROVIDER = "openai"
    settings.EMBEDDING_MODEL = "fake-embedding"
    clear_provider_caches()
    guru = _indexed_python_guru()
    llm_server.reset()  # the log starts with the question, not with the summaries of indexing
    return guru


def _indexed_python_guru() -> Guru:
    guru = guru_make(slug="python", name="Python", domain_knowledge="The Python language")
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
