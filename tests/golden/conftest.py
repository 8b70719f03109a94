"""A guru with nine indexed pages (Milvus Lite, the fake embedder, sources processed eagerly as
they are added) and a golden set of three questions, each answered by one page. Six pages are
distractors that share words with the questions, so the top 5 passages are a real choice."""

import pytest
from openguru.evaluation.golden import golden_pair_create
from openguru.evaluation.models import GoldenPair
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource
from openguru.sources.services import source_create, source_reindex

from tests.answers.conftest import PAGES, page_url
from tests.gurus.helpers import guru_make

SLUG = "python"
DISTRACTORS = {
    "Classes": "Create a class with the class statement and create instances by calling it; "
    "methods take self as their first argument.",
    "Dictionaries": "Create a dictionary with braces and look keys up with square brackets; "
    "get returns a default for a missing key.",
    "Files": "Create a file with open and write text to it; the with statement closes the "
    "file even when an error happens.",
    "Threads": "Create a thread with threading.Thread and start it; join waits until the "
    "thread is finished.",
    "Packages": "Create a package from a folder holding an __init__.py module and install "
    "packages from an index with pip.",
    "Generators": "Create a generator with a function that uses yield; each next call resumes "
    "it where it stopped.",
}
QUESTIONS = {
    "Virtual environments": "How do I create and activate a virtual environment?",
    "List comprehensions": "How do I build a list of squares with a list comprehension?",
    "Exceptions": "How do I handle exceptions with try and except blocks?",
}
# What a re-index fetched once the documentation's page was replaced by a placeholder.
BROKEN_TITLE = "Page not found"
BROKEN_PAGE = "Sorry, this address has no content any more."


@pytest.fixture
def golden_guru(transactional_db) -> Guru:
    guru = guru_make(slug=SLUG, name="Python", domain_knowledge="The Python language")
    for title, text in {**PAGES, **DISTRACTORS}.items():
        source_create(
            guru=guru,
            type="text",
            url=page_url(title),
            title=title,
            content=f"# {title}\n\n{text}\n",
        )
    assert set(DataSource.objects.filter(guru=guru).values_list("status", flat=True)) == {"SUCCESS"}
    return guru


def source_titled(guru: Guru, title: str) -> DataSource:
    return DataSource.objects.get(guru=guru, title=title)


def add_golden_set(guru: Guru) -> list[GoldenPair]:
    return [
        golden_pair_create(
            guru=guru,
            question=question,
            expected_source_id=source_titled(guru, title).pk,
            expected_link=page_url(title),
        )
        for title, question in QUESTIONS.items()
    ]


def reindex_with(source: DataSource, content: str, title: str = "") -> DataSource:
    """Re-index a text source whose body changed (processed at once: the task queue is eager)."""
    source.content, source.title = content, title or source.title
    source.save(update_fields=["content", "title", "updated_at"])
    source_reindex(source=source)
    source.refresh_from_db()
    assert source.status == DataSource.Status.SUCCESS, source.user_error
    return source
