"""A YouTube playlist as one source, end to end: added through the admin API, listed by the
loopback YouTube Data API, transcripts from the loopback youtube.com, chunks in Milvus Lite.
A re-sync (manual or periodic) reads only new videos and drops the chunks of removed ones."""

import io
import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create
from openguru.sources.models import DataSource
from openguru.sources.selectors import sources_resync_due
from openguru.sources.tasks import sources_enqueue_due_resyncs
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.youtube_data_api import DATA_API_KEY, FakeEntry, FakeYouTubeDataApi
from tests.fakes.youtube_server import FakeYouTubeServer, spoken
from tests.sources.ingestion_helpers import (
    add,
    assert_failed_for_a_reason,
    best_bm25_hit,
    chunks_of,
    cited_links,
    detail_of,
    guru,
    reindex,
    snapshot,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["guru"]  # fixture, used by name

PLAYLIST = "PLfieldTalks01"
PLAYLIST_URL = f"https://www.youtube.com/playlist?list={PLAYLIST}"
ALPHA, BETA, GAMMA = "AlphaVideo1", "BetaVideo02", "GammaVideo3"
WORDS = {ALPHA: "aardvark", BETA: "bison", GAMMA: "cheetah"}


@pytest.fixture
def data_api(settings: Settings) -> Iterator[FakeYouTubeDataApi]:
    entries = [FakeEntry(ALPHA, "Aardvark talk"), FakeEntry(BETA, "Bison talk")]
    with FakeYouTubeDataApi({PLAYLIST: entries}) as api:
        settings.YOUTUBE_DATA_API_URL = api.api_url
        settings.YOUTUBE_API_KEY = DATA_API_KEY
        yield api


@pytest.fixture
def youtube(settings: Settings) -> Iterator[FakeYouTubeServer]:
    videos = {video: spoken(f"the {word} lecture") for video, word in WORDS.items()}
    with FakeYouTubeServer(videos=videos) as server:
        settings.YOUTUBE_BASE_URL = server.url
        settings.YOUTUBE_TRANSCRIPT_LANGUAGES = ["en"]
        yield server


def videos_of(guru: Guru, source_id: int) -> set[str]:
    return {str(hit.metadata["video_id"]) for hit in chunks_of(guru, source_id)}


def watched(youtube: FakeYouTubeServer, *, since: int = 0) -> list[str]:
    """The videos whose watch page the transcript client fetched, in order (each page is
    fetched twice: once for the consent cookie, once more with it)."""
    paths = [r.path for r in youtube.requests[since:] if r.path.startswith("/watch")]
    return list(dict.fromkeys(path.split("v=")[1][:11] for path in paths))


def added(client: APIClient) -> dict:
    response = add(client, type="youtube", url=PLAYLIST_URL)
    assert response.status_code == 201, response.json()
    return detail_of(client, response.json()["id"])


def test_first_sync_indexes_every_video_linked_to_its_moment(
    admin_client: APIClient,
    guru: Guru,
    data_api: FakeYouTubeDataApi,
    youtube: FakeYouTubeServer,
) -> None:
    detail = added(admin_client)
    assert detail["status"] == "SUCCESS", detail
    assert videos_of(guru, detail["id"]) == {ALPHA, BETA}
    for chunk in chunks_of(guru, detail["id"]):
        video = chunk.metadata["video_id"]
        link = re.fullmatch(
            rf"https://www\.youtube\.com/watch\?v={video}&t=(\d+)s",
            chunk.metadata["link"],
        )
        assert link, chunk.metadata["link"]
        assert int(link.group(1)) == chunk.metadata["start_s"]
        assert chunk.metadata["title"] == {ALPHA: "Aardvark talk", BETA: "Bison talk"}[video]
    # What a citation of the bison answer opens: the bison video at the minute it is said.
    hit = best_bm25_hit(guru, detail["id"], "bison lecture")
    assert hit.metadata["link"].startswith(f"https://www.youtube.com/watch?v={BETA}&t=")
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=api_key_create(user=admin_token_owner(), name="s")[1])
    search = client.post(f"/api/v1/{guru.slug}/search/", {"query": "bison lecture"}, format="json")
    assert search.status_code == 200, search.json()
    best = search.json()["results"][0]
    assert re.fullmatch(rf"https://www\.youtube\.com/watch\?v={BETA}&t=\d+s", best["link"]), best
    assert best["title"] == "Bison talk"


def test_an_answer_cites_the_video_at_the_moment_it_is_said(
    admin_client: APIClient,
    guru: Guru,
    data_api: FakeYouTubeDataApi,
    youtube: FakeYouTubeServer,
    llm_server: FakeOpenAIServer,
) -> None:
    added(admin_client)
    links = cited_links(admin_client, "What is said in the bison lecture?")
    moment = re.compile(rf"https://www\.youtube\.com/watch\?v={BETA}&t=\d+s")
    assert any(moment.fullmatch(link) for link in links), links


def test_a_resync_reads_only_new_videos_and_drops_removed_ones(
    admin_client: APIClient,
    guru: Guru,
    data_api: FakeYouTubeDataApi,
    youtube: FakeYouTubeServer,
) -> None:
    detail = added(admin_client)
    first = detail["last_result"]
    beta_chunks = {
        h.chunk_hash for h in chunks_of(guru, detail["id"]) if h.metadata["video_id"] == BETA
    }
    data_api.set_playlist(
        PLAYLIST, [FakeEntry(BETA, "Bison talk"), FakeEntry(GAMMA, "Cheetah talk")]
    )
    before = len(youtube.requests)

    detail = reindex(admin_client, detail["id"])
    assert detail["status"] == "SUCCESS", detail
    assert watched(youtube, since=before) == [GAMMA], "only the new video's transcript is read"
    assert videos_of(guru, detail["id"]) == {BETA, GAMMA}
    kept = {h.chunk_hash for h in chunks_of(guru, detail["id"]) if h.metadata["video_id"] == BETA}
    assert kept == beta_chunks
    result = detail["last_result"]
    gamma = len(chunks_of(guru, detail["id"])) - len(beta_chunks)
    assert result["chunks_new"] == gamma and result["chunks_embedded"] == gamma
    assert result["chunks_deleted"] == first["chunks_total"] - len(beta_chunks)
    assert not any(h.metadata["video_id"] == ALPHA for h in chunks_of(guru, detail["id"]))


def test_the_periodic_resync_picks_up_a_new_video(
    admin_client: APIClient,
    guru: Guru,
    data_api: FakeYouTubeDataApi,
    youtube: FakeYouTubeServer,
    settings: Settings,
) -> None:
    detail = added(admin_client)
    video = add(admin_client, type="youtube", url=f"https://www.youtube.com/watch?v={GAMMA}")
    long_ago = timezone.now() - timedelta(hours=settings.YOUTUBE_RESYNC_HOURS + 1)
    DataSource.objects.filter(guru=guru).update(last_indexed_at=long_ago)
    # A single video does not change: only the playlist is due.
    assert sources_resync_due(now=timezone.now()) == [detail["id"]]
    assert video.json()["id"] not in sources_resync_due(now=timezone.now())

    data_api.set_playlist(
        PLAYLIST, [FakeEntry(ALPHA, "Aardvark talk"), FakeEntry(GAMMA, "Cheetah talk")]
    )
    assert sources_enqueue_due_resyncs() == 1
    assert detail_of(admin_client, detail["id"])["status"] == "SUCCESS"
    assert videos_of(guru, detail["id"]) == {ALPHA, GAMMA}


def test_add_source_follows_a_playlist_from_the_terminal(
    guru: Guru, data_api: FakeYouTubeDataApi, youtube: FakeYouTubeServer
) -> None:
    out = io.StringIO()
    call_command("add_source", guru.slug, "youtube", PLAYLIST_URL, stdout=out, stderr=out)
    source = DataSource.objects.get(guru=guru, type="youtube")
    assert source.status == "SUCCESS", source.user_error
    assert videos_of(guru, source.pk) == {ALPHA, BETA}


def test_a_playlist_gone_upstream_fails_and_keeps_the_index(
    admin_client: APIClient,
    guru: Guru,
    data_api: FakeYouTubeDataApi,
    youtube: FakeYouTubeServer,
) -> None:
    detail = added(admin_client)
    before = snapshot(guru, detail["id"])
    assert before
    data_api.set_playlist("PLsomethingElse", [])
    with data_api.state.lock:
        del data_api.state.playlists[PLAYLIST]

    detail = reindex(admin_client, detail["id"])
    assert_failed_for_a_reason(detail, "no playlist at this address")
    assert snapshot(guru, detail["id"]) == before


def test_an_api_key_youtube_refuses_fails_in_words_and_keeps_the_index(
    admin_client: APIClient,
    guru: Guru,
    data_api: FakeYouTubeDataApi,
    youtube: FakeYouTubeServer,
    settings: Settings,
) -> None:
    detail = added(admin_client)
    before = snapshot(guru, detail["id"])
    assert before
    settings.YOUTUBE_API_KEY = "not-the-key"

    detail = reindex(admin_client, detail["id"])
    assert_failed_for_a_reason(detail, "YOUTUBE_API_KEY")
    assert snapshot(guru, detail["id"]) == before


def test_an_unknown_playlist_is_failed_with_a_readable_reason(
    admin_client: APIClient,
    guru: Guru,
    data_api: FakeYouTubeDataApi,
    youtube: FakeYouTubeServer,
) -> None:
    response = add(admin_client, type="youtube", url="https://www.youtube.com/playlist?list=PLnope")
    assert response.status_code == 201, response.json()
    detail = detail_of(admin_client, response.json()["id"])
    assert_failed_for_a_reason(detail, "YouTube has no playlist at this address")
    assert chunks_of(guru, detail["id"]) == []
