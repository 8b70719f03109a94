"""/api/v1/<guru>/youtube/playlist/ and …/channel/: the videos of a playlist or channel, listed
through the loopback YouTube Data API (tests/fakes/youtube_data_api.py)."""

from collections.abc import Iterator

import pytest
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create
from openguru.integrations.models import APIKey
from openguru.sources.models import DataSource
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.fakes.youtube_data_api import DATA_API_KEY, FakeChannel, FakeEntry, FakeYouTubeDataApi
from tests.gurus.helpers import guru_make

PLAYLIST = "PLapiTalks0001"
CHANNEL_ID = "UCapiChannel000000000000"
ENTRIES = [
    FakeEntry("ApiVideo001", "First"),
    FakeEntry("ApiGone0002", "x", deleted=True),
    FakeEntry("ApiVideo003", "Third"),
    FakeEntry("ApiVideo004", "Fourth"),
]


@pytest.fixture
def guru(transactional_db: None) -> Guru:
    return guru_make(slug="talks", name="Talks")


@pytest.fixture
def data_api(settings: Settings) -> Iterator[FakeYouTubeDataApi]:
    channel = FakeChannel(CHANNEL_ID, "@apitalks", "UU" + CHANNEL_ID[2:])
    playlists = {PLAYLIST: ENTRIES, "UU" + CHANNEL_ID[2:]: ENTRIES[:1]}
    with FakeYouTubeDataApi(playlists, channels=[channel]) as api:
        settings.YOUTUBE_DATA_API_URL = api.api_url
        settings.YOUTUBE_API_KEY = DATA_API_KEY
        settings.YOUTUBE_LIST_MAX_RETRIES = 1
        yield api


def client_for(raw: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=raw)
    return client


@pytest.fixture
def client(guru: Guru) -> APIClient:
    return client_for(api_key_create(user=admin_token_owner(), name="tests")[1])


def test_a_playlist_is_listed_page_by_page(client: APIClient, data_api: FakeYouTubeDataApi) -> None:
    url = f"https://www.youtube.com/playlist?list={PLAYLIST}"
    response = client.post("/api/v1/talks/youtube/playlist/", {"url": url}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["playlist_id"] == PLAYLIST and body["video_count"] == 3
    assert body["videos"][0] == {
        "video_id": "ApiVideo001",
        "title": "First",
        "link": "https://www.youtube.com/watch?v=ApiVideo001",
    }
    assert [v["video_id"] for v in body["videos"]] == ["ApiVideo001", "ApiVideo003", "ApiVideo004"]
    assert len(data_api.paths) == 2, "two pages of two"
    # A video link inside the playlist names the playlist too; nothing is added either way.
    inside = f"https://www.youtube.com/watch?v=ApiVideo003&list={PLAYLIST}"
    again = client.post("/api/v1/talks/youtube/playlist/", {"url": inside}, format="json")
    assert again.json()["playlist_id"] == PLAYLIST
    assert DataSource.objects.count() == 0


def test_a_channel_is_listed_by_handle(client: APIClient, data_api: FakeYouTubeDataApi) -> None:
    response = client.post(
        "/api/v1/talks/youtube/channel/",
        {"url": "https://www.youtube.com/@apitalks"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json() == {
        "channel_id": CHANNEL_ID,
        "video_count": 1,
        "videos": [
            {
                "video_id": "ApiVideo001",
                "title": "First",
                "link": "https://www.youtube.com/watch?v=ApiVideo001",
            }
        ],
    }


def test_refusals_are_json_with_a_code(
    client: APIClient, data_api: FakeYouTubeDataApi, settings: Settings
) -> None:
    def post(kind: str, url: str) -> tuple[int, dict]:
        response = client.post(f"/api/v1/talks/youtube/{kind}/", {"url": url}, format="json")
        return response.status_code, response.json()

    status, body = post("playlist", "https://www.youtube.com/watch?v=ApiVideo001")
    assert (status, body["code"]) == (400, "invalid_input") and "playlist link" in body["msg"]
    status, body = post("channel", f"https://www.youtube.com/playlist?list={PLAYLIST}")
    assert (status, body["code"]) == (400, "invalid_input") and "channel link" in body["msg"]
    status, body = post("playlist", "https://www.youtube.com/playlist?list=PLmissing")
    assert (status, body["code"]) == (400, "fetch_failed"), body
    assert body["msg"] == "YouTube has no playlist at this address."
    data_api.fail_next(503, times=5)
    status, body = post("playlist", f"https://www.youtube.com/playlist?list={PLAYLIST}")
    assert (status, body["code"]) == (503, "provider_unavailable"), body
    settings.YOUTUBE_API_KEY = ""
    status, body = post("channel", "https://www.youtube.com/@apitalks")
    assert (status, body["code"]) == (503, "not_configured"), body


def test_only_keys_that_may_change_sources_list_videos(
    guru: Guru, data_api: FakeYouTubeDataApi, django_user_model
) -> None:
    url = {"url": f"https://www.youtube.com/playlist?list={PLAYLIST}"}
    owner = admin_token_owner()
    ask_only = api_key_create(user=owner, name="ask", scope=APIKey.Scope.ASK)[1]
    refused = client_for(ask_only).post("/api/v1/talks/youtube/playlist/", url, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"

    other = guru_make(slug="other", name="Other")
    elsewhere = api_key_create(user=owner, name="other", guru_slugs=[other.slug])[1]
    hidden = client_for(elsewhere).post("/api/v1/talks/youtube/playlist/", url, format="json")
    assert hidden.status_code == 404

    reader = api_key_create(user=django_user_model.objects.create_user("reader"), name="r")[1]
    assert client_for(reader).post(
        "/api/v1/talks/youtube/channel/", url, format="json"
    ).status_code in (403, 404)
    nobody = APIClient().post("/api/v1/talks/youtube/playlist/", url, format="json")
    assert nobody.status_code == 401
    assert data_api.paths == [], "a refused caller costs no YouTube quota"
