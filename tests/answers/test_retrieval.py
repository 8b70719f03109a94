"""Retrieval's overlap hooks, on the real Milvus collection of the test guru, its question
embedded by the loopback OpenAI-compatible server (so the embedding can be held there)."""

import time

import pytest
from openguru.answers.retrieval import retrieve
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.vectorstore.factory import get_vector_store

from tests.answers.conftest import page_url
from tests.fakes.openai_server import FakeOpenAIServer

pytestmark = pytest.mark.django_db(transaction=True)

QUESTION = "How do I create a virtual environment with venv?"


def embeddings_requested(server: FakeOpenAIServer) -> bool:
    return any(r.path.endswith("/embeddings") for r in list(server.requests))


# A retrieval that embeds first and calls the hook afterwards waits out the server's 30 s
# hold: the timeout fails it instead.
@pytest.mark.timeout(20)
def test_while_embedding_runs_while_the_question_is_being_embedded(
    python_guru_embedded_over_http, llm_server
):
    held = llm_server.hold_next_embedding()
    seen_in_flight: list[bool] = []

    def beside() -> None:
        deadline = time.monotonic() + 10
        while not embeddings_requested(llm_server) and time.monotonic() < deadline:
            time.sleep(0.002)
        seen_in_flight.append(embeddings_requested(llm_server) and not held.is_set())
        held.set()

    result = retrieve(
        collection=python_guru_embedded_over_http.collection_name,
        queries=[QUESTION],
        mode="hybrid",
        limit=10,
        embedder=get_embedder(),
        store=get_vector_store(),
        while_embedding=beside,
    )
    assert seen_in_flight == [True]
    assert result.query_vector is not None
    assert result.candidates[0].hit.metadata["link"].startswith(page_url("Virtual environments"))
