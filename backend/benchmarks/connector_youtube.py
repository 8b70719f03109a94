"""YouTube playlists in the connectors section: a loopback Data API listing a playlist of
`n_items` videos (50 a page, the API's maximum) and a loopback youtube.com serving each one's
two minutes of captions."""

from typing import Any

from django.test import override_settings

from benchmarks.connectors import index_and_resync, scratch_guru

PLAYLIST = "PLbenchTalks"
TOPICS = ("profiling", "packaging", "typing", "testing", "asyncio", "deployment")


def bench_ingest(n_items: int = 1000) -> dict[str, Any]:
    from tests.fakes.youtube_data_api import DATA_API_KEY, FakeEntry, FakeYouTubeDataApi
    from tests.fakes.youtube_server import FakeYouTubeServer, spoken

    ids = [f"Bench{number:06d}" for number in range(n_items)]
    videos = {
        video: spoken(f"talk {number} on {TOPICS[number % len(TOPICS)]}")
        for number, video in enumerate(ids)
    }
    entries = [FakeEntry(video, f"Talk {number}") for number, video in enumerate(ids)]
    with (
        FakeYouTubeDataApi({PLAYLIST: entries}, page_size=50) as data_api,
        FakeYouTubeServer(videos=videos) as youtube,
        override_settings(
            YOUTUBE_DATA_API_URL=data_api.api_url,
            YOUTUBE_API_KEY=DATA_API_KEY,
            YOUTUBE_BASE_URL=youtube.url,
            YOUTUBE_TRANSCRIPT_LANGUAGES=["en"],
            YOUTUBE_LIST_MAX_VIDEOS=n_items,
        ),
        scratch_guru("yt") as guru,
    ):
        return index_and_resync(
            guru=guru,
            connector="youtube",
            n_items=n_items,
            url=f"https://www.youtube.com/playlist?list={PLAYLIST}",
        )
