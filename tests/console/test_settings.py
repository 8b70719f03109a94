"""The platform settings API: thresholds change and stay changed; providers are read-only."""

from openguru.core.models import PlatformSettings


def test_settings_are_read_with_the_providers_in_use(admin_api, settings):
    body = admin_api.get("/api/settings/").json()
    assert body["trust_score_threshold"] == 0.35
    assert body["low_trust_threshold"] == 0.5
    assert body["providers"] == {
        "llm": "none",
        "embedding": "fake",
        "reranker": "none",
        "vector_store": settings.VECTOR_STORE,
    }
    assert body["embedding_model"] == settings.EMBEDDING_MODEL
    assert body["llm_model"] == ""


def test_a_patch_is_saved_and_only_what_it_names_changes(admin_api):
    response = admin_api.patch(
        "/api/settings/",
        {"trust_score_threshold": 0.5, "answer_cache_enabled": False, "providers": {"llm": "x"}},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["trust_score_threshold"] == 0.5
    assert response.json()["providers"]["llm"] == "none"  # read-only: ignored
    row = PlatformSettings.objects.get(pk=1)
    assert (row.trust_score_threshold, row.answer_cache_enabled) == (0.5, False)
    assert row.similar_question_threshold == 0.95
    assert admin_api.get("/api/settings/").json()["answer_cache_enabled"] is False


def test_out_of_range_values_are_refused(admin_api):
    response = admin_api.patch("/api/settings/", {"trust_score_threshold": 1.5}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert "trust_score_threshold" in response.json()["detail"]
    assert PlatformSettings.objects.get_or_create(pk=1)[0].trust_score_threshold == 0.35
