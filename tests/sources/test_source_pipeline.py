"""Sources through the admin API, the (eager) task and the real indexing path into Milvus."""

import json

import pytest
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource, EmbeddingCacheEntry

pytestmark = pytest.mark.django_db(transaction=True)

GUIDE = """# Install

Run pip install frobnicator to install the frobnicator toolkit on any platform.

## Configure

Set FROB_LEVEL to choose how hard the frobnicator frobs; the default level is three.
"""


@pytest.fixture
def guru(admin_client):
    response = admin_client.post("/api/gurus/", {"slug": "frob", "name": "Frob"}, format="json")
    assert response.status_code == 201
    return Guru.objects.get(slug="frob")


def _add(admin_client, **data):
    return admin_client.post("/api/gurus/frob/sources/", data, format="json")


def test_a_text_source_is_indexed_and_readable_through_the_api(admin_client, guru):
    response = _add(admin_client, type="text", title="Guide", content=GUIDE)
    assert response.status_code == 201, response.json()
    source_id = response.json()["id"]
    detail = admin_client.get(f"/api/gurus/frob/sources/{source_id}/").json()
    assert detail["status"] == "SUCCESS", detail
    assert detail["chunk_count"] >= 2
    assert detail["progress"]["chunks_total"] == detail["chunk_count"]
    stored = get_vector_store().count(guru.collection_name, source_id=source_id)
    assert stored == detail["chunk_count"]


def test_reindexing_unchanged_content_embeds_nothing(admin_client, guru):
    source_id = _add(admin_client, type="text", title="Guide", content=GUIDE).json()["id"]
    first = DataSource.objects.get(pk=source_id)
    assert first.last_result["chunks_embedded"] == first.chunk_count
    cached = EmbeddingCacheEntry.objects.count()

    response = admin_client.post(f"/api/gurus/frob/sources/{source_id}/reindex/")
    assert response.status_code == 202
    again = DataSource.objects.get(pk=source_id)
    assert again.status == "SUCCESS"
    assert again.last_result["chunks_embedded"] == 0
    assert again.last_result["chunks_new"] == 0
    assert again.chunk_count == first.chunk_count
    assert again.reindex_count == 1
    assert EmbeddingCacheEntry.objects.count() == cached


def test_changed_content_replaces_only_what_changed(admin_client, guru):
    source_id = _add(admin_client, type="text", title="Guide", content=GUIDE).json()["id"]
    store = get_vector_store()
    before = store.chunk_hashes(guru.collection_name, source_id=source_id)
    DataSource.objects.filter(pk=source_id).update(
        content=GUIDE.replace("default level is three", "default level is seven")
    )
    admin_client.post(f"/api/gurus/frob/sources/{source_id}/reindex/")
    source = DataSource.objects.get(pk=source_id)
    after = store.chunk_hashes(guru.collection_name, source_id=source_id)
    assert source.last_result["chunks_new"] >= 1
    assert source.last_result["chunks_deleted"] >= 1
    assert before & after, "the unchanged section kept its chunk"
    assert len(after) == source.chunk_count


def test_faq_pairs_become_one_chunk_each(admin_client, guru):
    pairs = [
        {"question": "How do I reset the frob counter?", "answer": "Call frob.reset()."},
        {"question": "Is frobnicator thread safe?", "answer": "Yes, since version 2."},
    ]
    response = _add(admin_client, type="faq", content=json.dumps(pairs))
    source = DataSource.objects.get(pk=response.json()["id"])
    assert source.status == "SUCCESS", source.error
    assert source.chunk_count == 2


def test_deleting_a_source_deletes_its_vectors(admin_client, guru):
    keep = _add(admin_client, type="text", title="Keep", content=GUIDE).json()["id"]
    other = GUIDE + "\nMore text about frobbing here."
    gone = _add(admin_client, type="text", title="Gone", content=other).json()["id"]
    store = get_vector_store()
    assert store.count(guru.collection_name, source_id=gone) > 0
    assert admin_client.delete(f"/api/gurus/frob/sources/{gone}/").status_code == 204
    assert store.count(guru.collection_name, source_id=gone) == 0
    assert store.count(guru.collection_name, source_id=keep) > 0


def test_bad_source_input_is_refused_before_anything_is_stored(admin_client, guru):
    cases = [
        {"type": "website", "url": "not a url"},
        {"type": "youtube", "url": "https://example.com/watch?v=x"},
        {"type": "text", "content": "   "},
        {"type": "carrier-pigeon", "url": "https://x.org"},
        {"type": "pdf", "url": "https://x.org/a.pdf"},
    ]
    for data in cases:
        response = _add(admin_client, **data)
        assert response.status_code == 400, (data, response.json())
        assert response.json()["code"] == "invalid_input"
    assert DataSource.objects.count() == 0


def test_the_same_url_twice_is_a_conflict(admin_client, guru):
    url = "https://docs.example.org/"
    DataSource.objects.create(guru=guru, type="website", url=url)
    response = _add(admin_client, type="website", url=url)
    assert response.status_code == 409
    assert response.json()["code"] == "conflict"


def test_a_failing_source_is_marked_failed_with_a_readable_reason(admin_client, guru):
    response = _add(admin_client, type="faq", content="this is not a list of pairs")
    source = DataSource.objects.get(pk=response.json()["id"])
    assert source.status == "FAILED"
    assert source.user_error
    assert "Traceback" not in source.user_error
