import pytest
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.factory import get_vector_store

pytestmark = pytest.mark.django_db(transaction=True)


def test_create_list_update_delete_a_guru(admin_client, anon_client):
    created = admin_client.post(
        "/api/gurus/",
        {"slug": "python", "name": "Python", "domain_knowledge": "The Python language"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    guru = Guru.objects.get(slug="python")
    assert guru.embedding_dimension == 384
    store = get_vector_store()
    assert store.has_collection(guru.collection_name)

    assert [g["slug"] for g in anon_client.get("/api/gurus/").json()] == ["python"]

    updated = admin_client.patch("/api/gurus/python/", {"active": False}, format="json")
    assert updated.status_code == 200
    assert anon_client.get("/api/gurus/").json() == []
    assert anon_client.get("/api/gurus/python/").status_code == 404
    assert admin_client.get("/api/gurus/python/").status_code == 200

    assert admin_client.delete("/api/gurus/python/").status_code == 204
    assert not Guru.objects.filter(slug="python").exists()
    assert not store.has_collection(guru.collection_name)


def test_slugs_are_unique_and_url_safe(admin_client):
    assert (
        admin_client.post("/api/gurus/", {"slug": "dup", "name": "A"}, format="json").status_code
        == 201
    )
    again = admin_client.post("/api/gurus/", {"slug": "dup", "name": "B"}, format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "conflict"
    bad = admin_client.post("/api/gurus/", {"slug": "Not_OK", "name": "C"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid_input"


def test_domain_knowledge_is_limited_to_200_chars(admin_client):
    response = admin_client.post(
        "/api/gurus/", {"slug": "long", "name": "L", "domain_knowledge": "x" * 201}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["msg"].startswith("domain_knowledge")
