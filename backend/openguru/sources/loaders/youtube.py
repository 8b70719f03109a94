"""YouTube loader: the video's transcript, in Documents of about a minute that keep their start
time, linked as `watch?v=ID&t=Ns` so a citation opens the video where the answer is said."""

import html
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import parse_qs, urlsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from youtube_transcript_api import (
    CouldNotRetrieveTranscript,
    FetchedTranscriptSnippet,
    IpBlocked,
    NoTranscriptFound,
    NotTranslatable,
    PoTokenRequired,
    RequestBlocked,
    Transcript,
    TranscriptList,
    TranscriptsDisabled,
    TranslationLanguageNotAvailable,
    YouTubeRequestFailed,
    YouTubeTranscriptApi,
)

from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.sources.loaders.base import (
    Document,
    LoadProgress,
    LoadRequest,
    LoadResult,
    ProgressCallback,
)
from openguru.sources.loaders.requests_capped import response_read_capped

logger = logging.getLogger(__name__)

YOUTUBE_ORIGIN = "https://www.youtube.com"
_VIDEO_ID = re.compile(r"^[A-Za-z0-9_-]{11}$")
_YOUTUBE_HOSTS = frozenset({"youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com"})
_PATH_PREFIXES = ("/shorts/", "/embed/", "/live/", "/v/")
# About a minute of speech (~150 words) fits one chunk of a 256-token embedder.
_GROUP_SECONDS = 60.0
_GROUP_MAX_CHARS = 900
# Any one reply (watch page, player JSON, caption XML). A day of captions is about 5 MB; the
# library reads a body whole, so one that never ends would grow until the worker dies.
RESPONSE_MAX_BYTES = 32 * 1024 * 1024


class YouTubeLoader:
    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        video_id = parse_video_id(request.url)
        watch_page = WatchPageRecorder()
        snippets = fetch_snippets(transcript_session(watch_page), video_id)
        title = watch_page_title(watch_page.html) or request.title or video_id
        on_progress(LoadProgress(discovered=1, fetched=1))
        documents = [
            Document(
                title=title,
                link="" if request.private else watch_link(video_id, start),
                text=text,
                format="text",
                metadata={"start_s": start, "video_id": video_id},
            )
            for start, text in group_snippets(snippets)
        ]
        return LoadResult(documents=iter(documents))


def parse_video_id(url: str) -> str:
    """The 11-character id from watch?v=, youtu.be/, shorts/, embed/ (and live/, v/) URLs."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    candidate = ""
    if parts.scheme in ("http", "https") and host == "youtu.be":
        candidate = parts.path.strip("/").split("/")[0]
    elif parts.scheme in ("http", "https") and host in _YOUTUBE_HOSTS:
        if parts.path == "/watch":
            candidate = (parse_qs(parts.query).get("v") or [""])[0]
        elif parts.path.startswith(_PATH_PREFIXES):
            candidate = parts.path.split("/")[2]
    if not _VIDEO_ID.match(candidate):
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            "This is not a YouTube video link (expected youtube.com/watch?v=…, youtu.be/…, "
            "youtube.com/shorts/… or youtube.com/embed/…).",
        )
    return candidate


def watch_link(video_id: str, start_s: int) -> str:
    return f"{YOUTUBE_ORIGIN}/watch?v={video_id}&t={start_s}s"


def group_snippets(snippets: Iterable[FetchedTranscriptSnippet]) -> list[tuple[int, str]]:
    """(start second, text) groups of about a minute, cut at snippet boundaries."""
    groups: list[tuple[int, str]] = []
    start = 0.0
    words: list[str] = []
    for snippet in snippets:
        text = " ".join(snippet.text.split())
        if not text:
            continue
        size = sum(len(word) + 1 for word in words)
        if words and (snippet.start - start >= _GROUP_SECONDS or size >= _GROUP_MAX_CHARS):
            groups.append((int(start), " ".join(words)))
            words = []
        if not words:
            start = snippet.start
        words.append(text)
    if words:
        groups.append((int(start), " ".join(words)))
    return groups


# --- transport ----------------------------------------------------------------------------------


class _YouTubeAdapter(HTTPAdapter):
    """The transcript library has its youtube.com URLs built in and sends no timeouts. This
    adapter adds a timeout to every request and, when YOUTUBE_BASE_URL points elsewhere (a
    stand-in server in tests, a caching proxy), sends the same requests there. The session
    still sees youtube.com URLs, so the library's consent cookie keeps working."""

    def __init__(self, *, base_url: str, timeout: float) -> None:
        super().__init__()
        self._base_url = base_url.rstrip("/")
        self._timeout = timeout

    # The keyword arguments (stream, timeout, verify, ...) pass through unchanged.
    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        url = request.url or ""
        if self._base_url != YOUTUBE_ORIGIN and url.startswith(YOUTUBE_ORIGIN):
            request = request.copy()
            request.url = self._base_url + url[len(YOUTUBE_ORIGIN) :]
        kwargs["timeout"] = kwargs.get("timeout") or self._timeout
        kwargs["stream"] = True  # read below, up to the cap, instead of whole
        response = super().send(request, **kwargs)
        _read_capped(response)
        return response


def _read_capped(response: requests.Response) -> None:
    limit_mb = RESPONSE_MAX_BYTES // (1024 * 1024)
    response_read_capped(
        response,
        max_bytes=RESPONSE_MAX_BYTES,
        too_large=f"YouTube sent more than {limit_mb} MB for this video; it was not read.",
    )


class WatchPageRecorder:
    """Keeps the last watch page the library fetched, to read the title without a second GET."""

    def __init__(self) -> None:
        self.html = ""

    def __call__(self, response: requests.Response, *args: Any, **kwargs: Any) -> None:
        if urlsplit(response.url).path == "/watch" and response.ok:
            self.html = response.text


def transcript_session(watch_page: WatchPageRecorder) -> requests.Session:
    session = requests.Session()
    session.headers["User-Agent"] = settings.CRAWLER_USER_AGENT
    adapter = _YouTubeAdapter(
        base_url=settings.YOUTUBE_BASE_URL, timeout=settings.CRAWLER_TIMEOUT_SECONDS
    )
    session.mount(f"{YOUTUBE_ORIGIN}/", adapter)
    session.hooks["response"].append(watch_page)
    return session


_OG_TITLE = re.compile(r'<meta\s+property="og:title"\s+content="([^"]*)"', re.IGNORECASE)
_TITLE = re.compile(r"<title>(.*?)</title>", re.IGNORECASE | re.DOTALL)


def watch_page_title(page: str) -> str:
    match = _OG_TITLE.search(page) or _TITLE.search(page)
    if not match:
        return ""
    title = " ".join(html.unescape(match.group(1)).split()).removesuffix(" - YouTube").strip()
    return "" if title == "YouTube" else title


# --- transcript -----------------------------------------------------------------------------------

_NO_TRANSCRIPT_REASONS: Mapping[type[CouldNotRetrieveTranscript], str] = {
    TranscriptsDisabled: "Subtitles are turned off for this video, so there is no transcript.",
    NoTranscriptFound: "This video has no transcript.",
    NotTranslatable: "This video has no transcript in a supported language.",
    TranslationLanguageNotAvailable: "This video has no transcript in a supported language.",
    PoTokenRequired: "YouTube does not release this video's transcript to other programs.",
}
_RETRYABLE = (IpBlocked, RequestBlocked, YouTubeRequestFailed)


def fetch_snippets(session: requests.Session, video_id: str) -> list[FetchedTranscriptSnippet]:
    api = YouTubeTranscriptApi(http_client=session)
    try:
        transcript = _choose_transcript(api.list(video_id), settings.YOUTUBE_TRANSCRIPT_LANGUAGES)
        snippets = list(transcript.fetch())
    except requests.RequestException as exc:
        raise TransientError(ErrorCode.FETCH_FAILED, "YouTube could not be reached.") from exc
    except _RETRYABLE as exc:
        logger.info("YouTube refused transcript of %s: %s", video_id, type(exc).__name__)
        raise TransientError(
            ErrorCode.FETCH_FAILED, "YouTube refused the transcript request; will retry."
        ) from exc
    except CouldNotRetrieveTranscript as exc:
        raise DomainError(ErrorCode.NO_TRANSCRIPT, _no_transcript_reason(exc)) from exc
    except DomainError:
        raise
    except Exception as exc:  # the caption XML or player JSON was not what the library expects
        logger.warning("Unreadable YouTube response for %s: %s", video_id, exc)
        raise TransientError(ErrorCode.FETCH_FAILED, "YouTube sent an unreadable reply.") from exc
    if not any(snippet.text.strip() for snippet in snippets):
        raise DomainError(ErrorCode.NO_TRANSCRIPT, "This video's transcript is empty.")
    return snippets


def _no_transcript_reason(exc: CouldNotRetrieveTranscript) -> str:
    for error_type, reason in _NO_TRANSCRIPT_REASONS.items():
        if isinstance(exc, error_type):
            return reason
    # Unavailable, private, age-restricted or unplayable videos: no transcript we can read.
    return "This video is unavailable (private, removed, age-restricted or unplayable)."


def _choose_transcript(transcripts: TranscriptList, languages: Sequence[str]) -> Transcript:
    """Preferred languages (manual before generated), else a translation into a preferred
    language or English, else whatever transcript exists."""
    wanted = list(languages) or ["en"]
    try:
        return transcripts.find_transcript(wanted)
    except NoTranscriptFound:
        pass
    available = list(transcripts)
    for target in dict.fromkeys([*wanted, "en"]):
        for transcript in available:
            codes = {language.language_code for language in transcript.translation_languages}
            if target in codes:
                return transcript.translate(target)
    if not available:
        raise NoTranscriptFound(transcripts.video_id, wanted, transcripts)
    return available[0]
