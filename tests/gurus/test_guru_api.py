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


def test_a_maintainer_reads_and_changes_the_gurus_settings(admin_client, anon_client):
    created = admin_client.post(
        "/api/gurus/",
        {"slug": "tuned", "name": "Tuned", "custom_instruction": "Answer in French."},
        format="json",
    ).json()
    assert created["custom_instruction"] == "Answer in French."
    assert (created["trust_threshold"], created["answer_mode"]) == (None, "")

    changes = {"trust_threshold": 0.55, "answer_mode": "fast", "github_webhook_secret": "s3"}
    changed = admin_client.patch("/api/gurus/tuned/", changes, format="json").json()
    assert (changed["trust_threshold"], changed["answer_mode"]) == (0.55, "fast")
    # What the console's form reads back before it saves: nothing it did not show is lost.
    read = admin_client.get("/api/gurus/tuned/").json()
    assert read["custom_instruction"] == "Answer in French."
    assert read["github_webhook_secret_set"] is True and "github_webhook_secret" not in read
    assert read["calibrated_trust_threshold"] is None
    listed = admin_client.get("/api/gurus/").json()
    assert [g["trust_threshold"] for g in listed] == [0.55]

    # Visitors read the public face only.
    public = anon_client.get("/api/gurus/tuned/").json()
    assert "custom_instruction" not in public and "trust_threshold" not in public

    for bad in ({"trust_threshold": 1.5}, {"answer_mode": "turbo"}):
        refused = admin_client.patch("/api/gurus/tuned/", bad, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == "invalid_input"
    cleared = admin_client.patch("/api/gurus/tuned/", {"trust_threshold": None}, format="json")
    assert cleared.json()["trust_threshold"] is None
