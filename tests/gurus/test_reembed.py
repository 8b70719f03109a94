import pytest
from openguru.answers.models import Question
from openguru.gurus.models import Guru
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource

pytestmark = pytest.mark.django_db(transaction=True)

TEXT = "# Widgets\n\nWidgets spin clockwise unless the reverse flag is set on the widget.\n"


@pytest.fixture
def other_model(settings):
    yield lambda: _switch(settings)
    get_embedder.cache_clear()


def _switch(settings) -> None:
    settings.EMBEDDING_DIMENSION = 64  # a different embedding space: another model in effect
    get_embedder.cache_clear()


def test_changing_the_embedding_model_reindexes_every_source(
    admin_client, anon_client, other_model
):
    admin_client.post("/api/gurus/", {"slug": "w", "name": "W"}, format="json")
    admin_client.post("/api/gurus/w/sources/", {"type": "text", "content": TEXT}, format="json")
    old = Guru.objects.get(slug="w")
    store = get_vector_store()

    other_model()
    Guru.objects.filter(pk=old.pk).update(embedding_model="an-older-model")
    refused = anon_client.post(
        "/api/gurus/w/answer/", {"question": "How do widgets spin?"}, format="json"
    )
    assert refused.json()["code"] == "not_configured"

    response = admin_client.post("/api/gurus/w/reembed/")
    assert response.status_code == 202
    assert response.json() == {"queued_sources": 1}
    guru = Guru.objects.get(slug="w")
    assert guru.embedding_dimension == 64
    assert guru.collection_name != old.collection_name
    assert not store.has_collection(old.collection_name)
    source = DataSource.objects.get(guru=guru)
    assert source.status == "SUCCESS", source.error
    assert store.count(guru.collection_name, source_id=source.pk) == source.chunk_count > 0
    answer = anon_client.post(
        "/api/gurus/w/answer/", {"question": "How do widgets spin?"}, format="json"
    )
    assert answer.status_code == 200, answer.json()


def test_questions_saved_under_the_old_model_do_not_break_answers(
    admin_client, anon_client, other_model
):
    admin_client.post("/api/gurus/", {"slug": "w", "name": "W"}, format="json")
    admin_client.post("/api/gurus/w/sources/", {"type": "text", "content": TEXT}, format="json")
    first = anon_client.post(
        "/api/gurus/w/answer/", {"question": "How do widgets spin?"}, format="json"
    )
    assert first.status_code == 200, first.json()
    assert Question.objects.exclude(vector=None).count() == 1  # a vector of the old model

    other_model()
    assert admin_client.post("/api/gurus/w/reembed/").status_code == 202
    assert not Question.objects.exclude(vector=None).exists()
    # A new question is compared with saved ones for near-duplicates: never across models.
    answer = anon_client.post(
        "/api/gurus/w/answer/", {"question": "Which way do widgets turn?"}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["refused"] is False or answer.json()["content"]
