"""YouTubeLoader against a loopback stand-in for youtube.com (tests/fakes/youtube_server.py),
driven through the real youtube-transcript-api client."""

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.sources.loaders.base import Document, LoadRequest
from openguru.sources.loaders.youtube import YouTubeLoader, parse_video_id
from pytest_django.fixtures import Settings

from tests.fakes.youtube_server import (
    NO_CAPTIONS_ID,
    TALK_ID,
    TALK_TITLE,
    FakeTrack,
    FakeVideo,
    FakeYouTubeServer,
    youtube_server,  # noqa: F401  (fixture)
)

MULTI_ID = "Multi_Lang1"
SPANISH_ID = "SpanishOnly"
LOCKED_ID = "NoTranslate"
BROKEN_ID = "PlayerDown1"


def load(url: str, **request: Any) -> list[Document]:
    result = YouTubeLoader().load(
        LoadRequest(source_id=1, url=url, **request),
        on_progress=lambda _progress: None,
    )
    return list(result.documents)


def watch(video_id: str) -> str:
    return f"https://www.youtube.com/watch?v={video_id}"


@pytest.fixture
def youtube(youtube_server: FakeYouTubeServer, settings: Settings) -> FakeYouTubeServer:  # noqa: F811
    settings.YOUTUBE_BASE_URL = youtube_server.url
    settings.YOUTUBE_TRANSCRIPT_LANGUAGES = ["en"]
    return youtube_server


@pytest.fixture
def languages_server(settings: Settings) -> Iterator[FakeYouTubeServer]:
    line = ((0.0, 3.0, "Hola a todos"), (3.0, 3.0, "bienvenidos"))
    videos = {
        MULTI_ID: FakeVideo(
            title="Many languages",
            tracks=(
                FakeTrack("de", "Deutsch", ((0.0, 2.0, "Hallo zusammen"),)),
                FakeTrack(
                    "en",
                    "English (auto)",
                    ((0.0, 2.0, "hello everyone"),),
                    generated=True,
                ),
            ),
        ),
        SPANISH_ID: FakeVideo(
            title="Solo español",
            tracks=(FakeTrack("es", "Español", line, translatable=True),),
        ),
        LOCKED_ID: FakeVideo(title="Sin traducción", tracks=(FakeTrack("es", "Español", line),)),
        BROKEN_ID: FakeVideo(title="Down", player_status=503),
    }
    with FakeYouTubeServer(videos, require_consent=False) as server:
        settings.YOUTUBE_BASE_URL = server.url
        settings.YOUTUBE_TRANSCRIPT_LANGUAGES = ["en"]
        yield server


@pytest.mark.parametrize(
    "url",
    [
        f"https://www.youtube.com/watch?v={TALK_ID}",
        f"https://youtube.com/watch?feature=share&v={TALK_ID}&t=42s",
        f"https://m.youtube.com/watch?v={TALK_ID}",
        f"https://youtu.be/{TALK_ID}?si=abc",
        f"https://www.youtube.com/shorts/{TALK_ID}",
        f"https://www.youtube.com/embed/{TALK_ID}?start=3",
    ],
)
def test_video_id_from_every_link_form(url: str) -> None:
    assert parse_video_id(url) == TALK_ID


@pytest.mark.parametrize(
    "url",
    [
        "https://www.youtube.com/watch?v=short",
        "https://www.youtube.com/channel/UC1234567890",
        "https://vimeo.com/watch?v=PyTalk_2024",
        f"ftp://youtu.be/{TALK_ID}",
        "not a url",
    ],
)
def test_other_links_are_invalid_input(url: str) -> None:
    with pytest.raises(DomainError) as error:
        load(url)

    assert error.value.code == ErrorCode.INVALID_INPUT


def test_transcript_becomes_timed_documents(youtube: FakeYouTubeServer) -> None:
    documents = load(f"https://youtu.be/{TALK_ID}")

    starts = [doc.metadata["start_s"] for doc in documents]
    assert starts == [0, 60, 120, 180]
    assert [doc.link for doc in documents] == [
        f"https://www.youtube.com/watch?v={TALK_ID}&t={start}s" for start in starts
    ]
    assert {doc.title for doc in documents} == {TALK_TITLE}
    assert "At second 50 we talk about profiling topic50." in documents[0].text
    assert "topic60" not in documents[0].text
    assert documents[-1].text == "Thanks & goodbye everyone"


def test_consent_page_is_passed_and_every_call_reaches_the_stand_in(
    youtube: FakeYouTubeServer,
) -> None:
    load(watch(TALK_ID))

    calls = [(request.method, request.path.split("?")[0]) for request in youtube.requests]
    assert calls == [
        ("GET", "/watch"),  # consent interstitial
        ("GET", "/watch"),  # with the CONSENT cookie
        ("POST", "/youtubei/v1/player"),
        ("GET", "/api/timedtext"),
    ]
    assert "CONSENT=YES+" in youtube.requests[1].headers.get("Cookie", "")
    assert youtube.requests[2].body["videoId"] == TALK_ID


def test_private_source_keeps_start_times_but_no_links(
    youtube: FakeYouTubeServer,
) -> None:
    documents = load(watch(TALK_ID), private=True)

    assert {doc.link for doc in documents} == {""}
    assert documents[1].metadata["start_s"] == 60


def test_captions_turned_off_means_no_transcript(youtube: FakeYouTubeServer) -> None:
    with pytest.raises(DomainError) as error:
        load(watch(NO_CAPTIONS_ID))

    assert error.value.code == ErrorCode.NO_TRANSCRIPT
    assert not isinstance(error.value, TransientError)
    assert "turned off" in error.value.msg


def test_unavailable_video_means_no_transcript(youtube: FakeYouTubeServer) -> None:
    with pytest.raises(DomainError) as error:
        load(watch("Gone_Video1"))

    assert error.value.code == ErrorCode.NO_TRANSCRIPT
    assert "unavailable" in error.value.msg


def test_preferred_language_wins_even_when_generated(
    languages_server: FakeYouTubeServer,
) -> None:
    documents = load(watch(MULTI_ID))

    assert documents[0].text == "hello everyone"


def test_configured_languages_are_tried_in_order(
    languages_server: FakeYouTubeServer, settings: Settings
) -> None:
    settings.YOUTUBE_TRANSCRIPT_LANGUAGES = ["fr", "de", "en"]

    documents = load(watch(MULTI_ID))

    assert documents[0].text == "Hallo zusammen"


def test_other_language_is_translated_to_english(
    languages_server: FakeYouTubeServer,
) -> None:
    documents = load(watch(SPANISH_ID))

    assert documents[0].text == "[en] Hola a todos [en] bienvenidos"
    timedtext = [r.path for r in languages_server.requests if r.path.startswith("/api/timedtext")]
    assert timedtext == [f"/api/timedtext?v={SPANISH_ID}&lang=es&tlang=en"]


def test_untranslatable_transcript_is_used_as_it_is(
    languages_server: FakeYouTubeServer,
) -> None:
    documents = load(watch(LOCKED_ID))

    assert documents[0].text == "Hola a todos bienvenidos"
    assert documents[0].title == "Sin traducción"


def test_youtube_errors_are_transient(languages_server: FakeYouTubeServer) -> None:
    with pytest.raises(TransientError) as error:
        load(watch(BROKEN_ID))

    assert error.value.code == ErrorCode.FETCH_FAILED


def test_unreachable_youtube_is_transient(settings: Settings) -> None:
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.YOUTUBE_BASE_URL = f"http://127.0.0.1:{port}"

    with pytest.raises(TransientError) as error:
        load(watch(TALK_ID))

    assert error.value.code == ErrorCode.FETCH_FAILED
