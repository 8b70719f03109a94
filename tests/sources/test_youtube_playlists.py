"""Listing a YouTube playlist or channel (loaders/youtube_listing.py) against a loopback
YouTube Data API v3 (tests/fakes/youtube_data_api.py), and the collection loader reading each
listed video's transcript from the loopback youtube.com (tests/fakes/youtube_server.py)."""

import time
from collections.abc import Iterator

import pytest
from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.sources.loaders.base import LoadRequest
from openguru.sources.loaders.registry import loader_for
from openguru.sources.loaders.youtube_listing import (
    Collection,
    channel_from_url,
    collection_list,
    parse_collection_url,
    playlist_id_from_url,
)
from pytest_django.fixtures import Settings

from tests.fakes.youtube_data_api import (
    DATA_API_KEY,
    FakeChannel,
    FakeEntry,
    FakeYouTubeDataApi,
)
from tests.fakes.youtube_server import FakeVideo, FakeYouTubeServer, spoken

PLAYLIST = "PLfakeTalks0001"
UPLOADS = "UUfakeChannel00000000000"
CHANNEL_ID = "UCfakeChannel00000000000"
ENTRIES = [
    FakeEntry("VideoAaaaa1", "Alpha talk"),
    FakeEntry("VideoBbbbb2", "Beta talk"),
    FakeEntry("GoneVideo03", "was here", deleted=True),
    FakeEntry("VideoCcccc4", "Gamma talk"),
    FakeEntry("NoCaptions5", "A silent film"),
]


@pytest.fixture
def data_api(settings: Settings) -> Iterator[FakeYouTubeDataApi]:
    channel = FakeChannel(CHANNEL_ID, "@faketalks", UPLOADS)
    playlists = {PLAYLIST: list(ENTRIES), UPLOADS: list(ENTRIES[:2])}
    with FakeYouTubeDataApi(playlists, channels=[channel]) as api:
        settings.YOUTUBE_DATA_API_URL = api.api_url
        settings.YOUTUBE_API_KEY = DATA_API_KEY
        settings.YOUTUBE_LIST_MAX_RETRIES = 2
        yield api


@pytest.fixture
def youtube(settings: Settings) -> Iterator[FakeYouTubeServer]:
    videos = {
        "VideoAaaaa1": spoken("alpha"),
        "VideoBbbbb2": spoken("beta"),
        "VideoCcccc4": spoken("gamma"),
        "NoCaptions5": FakeVideo(title="A silent film"),
    }
    with FakeYouTubeServer(videos=videos) as server:
        settings.YOUTUBE_BASE_URL = server.url
        settings.YOUTUBE_TRANSCRIPT_LANGUAGES = ["en"]
        yield server


def test_collection_urls_are_told_apart_from_video_links() -> None:
    assert parse_collection_url(f"https://www.youtube.com/playlist?list={PLAYLIST}") == (
        Collection("playlist", PLAYLIST)
    )
    assert parse_collection_url(f"https://youtube.com/channel/{CHANNEL_ID}/videos") == (
        Collection("channel", CHANNEL_ID)
    )
    assert parse_collection_url("https://m.youtube.com/@faketalks") == (
        Collection("channel", "@faketalks")
    )
    assert parse_collection_url("https://www.youtube.com/user/legacy") == (
        Collection("channel", "user:legacy")
    )
    # A video, even inside a playlist, stays a single video; other hosts are not YouTube.
    assert (
        parse_collection_url(f"https://www.youtube.com/watch?v=VideoAaaaa1&list={PLAYLIST}") is None
    )
    assert parse_collection_url(f"https://example.com/playlist?list={PLAYLIST}") is None
    assert playlist_id_from_url(f"https://youtu.be/VideoAaaaa1?list={PLAYLIST}") == PLAYLIST
    with pytest.raises(DomainError, match="not a YouTube playlist link"):
        playlist_id_from_url("https://www.youtube.com/watch?v=VideoAaaaa1")
    with pytest.raises(DomainError, match="not a YouTube channel link"):
        channel_from_url(f"https://www.youtube.com/playlist?list={PLAYLIST}")


def test_a_playlist_is_listed_page_by_page_without_its_deleted_entry(
    data_api: FakeYouTubeDataApi,
) -> None:
    listing = collection_list(Collection("playlist", PLAYLIST))
    assert listing.collection_id == PLAYLIST
    assert [video.video_id for video in listing.videos] == [
        "VideoAaaaa1", "VideoBbbbb2", "VideoCcccc4", "NoCaptions5",
    ]  # fmt: skip
    assert listing.videos[0].title == "Alpha talk"
    tokens = [path for path in data_api.paths if "pageToken=" in path]
    assert len(data_api.paths) == 3 and len(tokens) == 2, "five entries, two a page"
    assert all(f"key={DATA_API_KEY}" in path for path in data_api.paths)


def test_a_channel_is_listed_through_its_uploads_playlist(
    data_api: FakeYouTubeDataApi,
) -> None:
    for url in (
        "https://www.youtube.com/@faketalks",
        f"https://youtube.com/channel/{CHANNEL_ID}",
    ):
        listing = collection_list(channel_from_url(url))
        assert listing.collection_id == CHANNEL_ID
        assert [video.video_id for video in listing.videos] == [
            "VideoAaaaa1",
            "VideoBbbbb2",
        ]
    with pytest.raises(DomainError, match="no channel at this address") as unknown:
        collection_list(Collection("channel", "@nobody_here"))
    assert not isinstance(unknown.value, TransientError)


def test_429_is_retried_after_the_delay_it_names(data_api: FakeYouTubeDataApi) -> None:
    data_api.fail_next(429, retry_after="1")
    started = time.monotonic()
    listing = collection_list(Collection("playlist", PLAYLIST))
    assert time.monotonic() - started >= 1.0, "Retry-After: 1 was waited for"
    assert len(listing.videos) == 4


def test_5xx_is_retried_and_a_failure_that_lasts_is_transient(
    data_api: FakeYouTubeDataApi,
) -> None:
    data_api.fail_next(503, retry_after="0")
    assert len(collection_list(Collection("playlist", PLAYLIST)).videos) == 4

    before = len(data_api.paths)
    data_api.fail_next(429, retry_after="0", times=10)
    with pytest.raises(TransientError, match="busy or failing"):
        collection_list(Collection("playlist", PLAYLIST))
    assert len(data_api.paths) - before == 3, "one try and YOUTUBE_LIST_MAX_RETRIES more"


def test_an_unknown_playlist_or_missing_key_is_a_readable_refusal(
    data_api: FakeYouTubeDataApi, settings: Settings
) -> None:
    with pytest.raises(DomainError, match="YouTube has no playlist at this address") as gone:
        collection_list(Collection("playlist", "PLdoesNotExist"))
    assert gone.value.code == ErrorCode.FETCH_FAILED
    assert not isinstance(gone.value, TransientError)

    settings.YOUTUBE_API_KEY = "wrong"
    with pytest.raises(DomainError, match="check YOUTUBE_API_KEY"):
        collection_list(Collection("playlist", PLAYLIST))
    settings.YOUTUBE_API_KEY = ""
    with pytest.raises(DomainError, match="needs a YouTube Data API key") as unset:
        collection_list(Collection("playlist", PLAYLIST))
    assert unset.value.code == ErrorCode.NOT_CONFIGURED


def test_the_loader_reads_each_video_and_skips_those_without_a_transcript(
    data_api: FakeYouTubeDataApi, youtube: FakeYouTubeServer
) -> None:
    progress = []
    result = loader_for("youtube").load(
        LoadRequest(source_id=1, url=f"https://www.youtube.com/playlist?list={PLAYLIST}"),
        on_progress=progress.append,
    )
    documents = list(result.documents)
    assert {d.metadata["video_id"] for d in documents} == {
        "VideoAaaaa1", "VideoBbbbb2", "VideoCcccc4",
    }  # fmt: skip
    first = documents[0]
    assert first.title == "Alpha talk"
    assert (
        first.link == f"https://www.youtube.com/watch?v=VideoAaaaa1&t={first.metadata['start_s']}s"
    )
    assert first.metadata["doc_link"] == "https://www.youtube.com/watch?v=VideoAaaaa1"
    assert set(result.fetch_state) == {
        f"https://www.youtube.com/watch?v={video}"
        for video in ("VideoAaaaa1", "VideoBbbbb2", "VideoCcccc4")
    }
    assert result.unchanged_links == set()
    assert progress[-1].fetched == 3 and progress[-1].failed == 1
    assert progress[-1].discovered == 4


def test_a_rerun_reads_only_videos_it_has_not_indexed(
    data_api: FakeYouTubeDataApi, youtube: FakeYouTubeServer
) -> None:
    indexed = {
        f"https://www.youtube.com/watch?v={video}": {"video_id": video, "chunks": ["h"]}
        for video in ("VideoAaaaa1", "VideoBbbbb2", "Removed0009")
    }
    result = loader_for("youtube").load(
        LoadRequest(
            source_id=1,
            url=f"https://www.youtube.com/playlist?list={PLAYLIST}",
            fetch_state=indexed,
        ),
        on_progress=lambda _progress: None,
    )
    assert {d.metadata["video_id"] for d in result.documents} == {"VideoCcccc4"}
    assert result.unchanged_links == {
        "https://www.youtube.com/watch?v=VideoAaaaa1",
        "https://www.youtube.com/watch?v=VideoBbbbb2",
    }
    watched = {path for r in youtube.requests if (path := r.path).startswith("/watch")}
    assert not any("VideoAaaaa1" in path or "VideoBbbbb2" in path for path in watched)


def test_a_playlist_whose_transcripts_all_fail_for_now_is_retried(
    data_api: FakeYouTubeDataApi, settings: Settings
) -> None:
    data_api.set_playlist(PLAYLIST, [FakeEntry("PlayerDown1", "Busy")])
    busy = {"PlayerDown1": FakeVideo(title="Busy", player_status=503)}
    with FakeYouTubeServer(videos=busy) as server:
        settings.YOUTUBE_BASE_URL = server.url
        result = loader_for("youtube").load(
            LoadRequest(source_id=1, url=f"https://www.youtube.com/playlist?list={PLAYLIST}"),
            on_progress=lambda _progress: None,
        )
        with pytest.raises(TransientError, match="refused the transcripts"):
            list(result.documents)
