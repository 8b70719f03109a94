"""Moving an instance from a Milvus collection per guru to the shared layout with
`manage.py vector_layout_migrate`, on Milvus Lite and PostgreSQL, while a guru is being asked."""

import threading
import time
from collections.abc import Callable, Iterator
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection
from openguru.answers.models import Question
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.providers.vectorstore.milvus import MilvusVectorStore
from openguru.sources.services import source_create
from rest_framework.test import APIClient

from tests.gurus.helpers import guru_make

pytestmark = pytest.mark.django_db(transaction=True)

QUESTION = "How do I create a virtual environment with venv?"


@pytest.fixture
def layout(settings) -> Iterator[Callable[[str], None]]:
    """Switch VECTOR_LAYOUT, as every process restarting with the changed setting would."""

    def switch(name: str) -> None:
        settings.VECTOR_LAYOUT = name
        get_vector_store.cache_clear()

    switch("per_guru")
    yield switch
    get_vector_store.cache_clear()


def _ask(client: APIClient) -> list[str]:
    response = client.post(
        "/api/gurus/python/answer/", {"question": QUESTION, "mode": "fast"}, format="json"
    )
    assert response.status_code == 200, response.content
    # The next ask searches again instead of reusing this answer.
    Question.objects.filter(guru__slug="python").delete()
    return [reference["link"] for reference in response.json()["references"]]


def _own_collections(names: set[str]) -> set[str]:
    """Those of `names` that are still Milvus collections."""
    milvus = MilvusVectorStore(uri=settings.MILVUS_URI)  # sees collections only, not the layout
    try:
        return {name for name in names if milvus.has_collection(name)}
    finally:
        milvus.close()


def _wait_for(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_gurus_move_to_the_shared_layout_answering_all_along(layout, python_guru, anon_client):
    # `layout` first: the guru is built and indexed in a collection of its own, whatever the
    # environment's VECTOR_LAYOUT.
    other = guru_make(slug="other", name="Other")
    source_create(
        guru=other,
        type="text",
        url="https://o.example.org/a",
        title="A",
        content="# A\n\nAlpha words.\n",
    )
    before = _ask(anon_client)
    assert before
    store = get_vector_store()
    names = dict(Guru.objects.values_list("slug", "collection_name"))
    counts = {slug: store.count(name) for slug, name in names.items()}
    assert all(counts.values())

    layout("shared")  # the old collections keep answering until moved
    assert _ask(anon_client) == before
    answers: list[list[str]] = []
    failures: list[BaseException] = []
    stop = threading.Event()

    def keep_asking() -> None:
        client = APIClient()
        try:
            while not stop.is_set():
                try:
                    answers.append(_ask(client))
                except BaseException as error:  # every failure is the finding
                    failures.append(error)
        finally:
            connection.close()

    asker = threading.Thread(target=keep_asking)
    asker.start()
    out = StringIO()
    try:
        _wait_for(lambda: len(answers) + len(failures) >= 1)
        call_command("vector_layout_migrate", "--grace-seconds", "0.5", stdout=out)
        done = len(answers) + len(failures)
        _wait_for(lambda: len(answers) + len(failures) > done)
    finally:
        stop.set()
        asker.join()

    assert failures == []
    assert answers and all(links == before for links in answers)
    assert "2 moved" in out.getvalue()
    store = get_vector_store()
    for slug, name in names.items():
        assert store.collection_layout(name) == "shared"
        assert store.count(name) == counts[slug]
    assert _own_collections(set(names.values())) == set()  # the old ones are dropped
    assert _ask(anon_client) == before

    again = StringIO()
    call_command("vector_layout_migrate", "--grace-seconds", "0", stdout=again)
    assert "0 moved" in again.getvalue()


def test_the_command_needs_the_shared_layout(layout):
    with pytest.raises(CommandError, match="VECTOR_LAYOUT=shared"):
        call_command("vector_layout_migrate")
