"""Malformed transcripts through the whole pipeline, from the loopback YouTube stand-in: broken
caption XML fails the source with a reason (after its retries), a day-long transcript is indexed
in bounded time, and a caption reply that never ends is cut at its cap; every failure leaves the
previous index and the guru's other sources as they were."""

import time
from collections.abc import Iterator

import pytest
from openguru.gurus.models import Guru
from openguru.sources.loaders.youtube import RESPONSE_MAX_BYTES
from pytest_django import Settings
from rest_framework.test import APIClient

from tests.fakes.youtube_server import (
    TALK_ID,
    TALK_TITLE,
    FakeTrack,
    FakeVideo,
    FakeYouTubeServer,
    talk_snippets,
)
from tests.sources.ingestion_helpers import (
    add,
    assert_failed_for_a_reason,
    bystander,
    detail_of,
    guru,
    reindex,
    snapshot,
    videos,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["bystander", "guru", "videos"]  # fixtures, used by name

GIGABYTE = 1 << 30
# What a socket may hold beyond what the reader took when it stopped reading.
BUFFERED = 16 * 1024 * 1024
TALK_URL = f"https://www.youtube.com/watch?v={TALK_ID}"
BILLION_LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(
        f'<!ENTITY lol{n} "{("&lol" + (str(n - 1) if n > 1 else "") + ";") * 10}">'
        for n in range(1, 10)
    )
    + ']><transcript><text start="1" dur="2">&lol9;</text></transcript>'
)
UNREADABLE = "YouTube sent an unreadable reply"
BROKEN_CAPTIONS = {  # body: the reason the source fails for
    "cut-off": (
        '<?xml version="1.0" encoding="utf-8" ?><transcript><text start="1.0" dur="2.',
        UNREADABLE,
    ),
    "no-numbers": (
        '<transcript><text start="soon" dur="later">Hello there</text></transcript>',
        UNREADABLE,
    ),
    "billion-laughs": (BILLION_LAUGHS, UNREADABLE),
    # Well-formed, but an error page: no caption line in it.
    "error-page": (
        "<html><body><h1>Service temporarily unavailable</h1></body></html>",
        "transcript is empty",
    ),
}


def english(snippets: tuple[tuple[float, float, str], ...]) -> FakeTrack:
    return FakeTrack("en", "English", snippets)


@pytest.fixture
def youtube(videos: dict[str, FakeVideo], settings: Settings) -> Iterator[FakeYouTubeServer]:
    with FakeYouTubeServer(videos=videos) as server:
        settings.YOUTUBE_BASE_URL = server.url
        yield server


def _indexed_talk(client: APIClient, guru: Guru) -> tuple[dict, dict[str, str]]:
    indexed = detail_of(client, add(client, type="youtube", url=TALK_URL).json()["id"])
    assert indexed["status"] == "SUCCESS", indexed
    return indexed, snapshot(guru, indexed["id"])


@pytest.mark.parametrize(
    ("body", "reason"), list(BROKEN_CAPTIONS.values()), ids=list(BROKEN_CAPTIONS)
)
def test_broken_caption_xml_fails_with_a_reason_and_keeps_the_last_index(
    admin_client: APIClient,
    guru: Guru,
    bystander: int,
    youtube: FakeYouTubeServer,
    videos: dict[str, FakeVideo],
    body: str,
    reason: str,
) -> None:
    others = snapshot(guru, bystander)
    indexed, kept = _indexed_talk(admin_client, guru)

    videos[TALK_ID] = FakeVideo(TALK_TITLE, (english(talk_snippets()),), caption_body=body)
    failed = reindex(admin_client, indexed["id"])

    assert_failed_for_a_reason(failed, reason)
    assert snapshot(guru, indexed["id"]) == kept
    assert snapshot(guru, bystander) == others


def test_a_day_long_transcript_is_indexed_in_bounded_time(
    admin_client: APIClient,
    guru: Guru,
    youtube: FakeYouTubeServer,
    videos: dict[str, FakeVideo],
) -> None:
    # A line every 2 s for 24 hours: 43,200 lines, about 4 MB of caption XML.
    day = tuple(
        (float(second), 2.0, f"At second {second} the marathon stream goes on.")
        for second in range(0, 86_400, 2)
    )
    videos[TALK_ID] = FakeVideo(TALK_TITLE, (english(day),))

    started = time.monotonic()
    indexed = detail_of(admin_client, add(admin_client, type="youtube", url=TALK_URL).json()["id"])
    elapsed = time.monotonic() - started

    assert indexed["status"] == "SUCCESS", indexed
    # About a minute per chunk (cut earlier when a minute holds more than ~900 characters).
    assert 1_440 <= indexed["chunk_count"] <= 4 * 1_440, indexed["chunk_count"]
    assert elapsed < 180, elapsed


def test_an_endless_caption_reply_is_cut_at_its_cap_and_keeps_the_last_index(
    admin_client: APIClient,
    guru: Guru,
    bystander: int,
    youtube: FakeYouTubeServer,
    videos: dict[str, FakeVideo],
) -> None:
    others = snapshot(guru, bystander)
    indexed, kept = _indexed_talk(admin_client, guru)

    track = english(talk_snippets())
    videos[TALK_ID] = FakeVideo(TALK_TITLE, (track,), caption_stream_bytes=GIGABYTE)
    failed = reindex(admin_client, indexed["id"])

    assert_failed_for_a_reason(failed, "more than 32 MB")
    assert RESPONSE_MAX_BYTES <= youtube.sent_caption_bytes <= RESPONSE_MAX_BYTES + BUFFERED
    assert snapshot(guru, indexed["id"]) == kept
    assert snapshot(guru, bystander) == others
