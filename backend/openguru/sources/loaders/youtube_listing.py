"""The videos of a YouTube playlist or channel, listed through the YouTube Data API v3
(playlistItems.list; a channel through channels.list to its uploads playlist). The transcripts
themselves are read as for a single video (`youtube.py`)."""

import logging
import re
import time
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import parse_qs, urlsplit

import requests
from django.conf import settings

from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.sources.loaders.requests_capped import response_read_capped

logger = logging.getLogger(__name__)

CollectionKind = Literal["playlist", "channel"]
_PLAYLIST_ID = re.compile(r"^[A-Za-z0-9_-]{2,64}$")
_CHANNEL_ID = re.compile(r"^UC[A-Za-z0-9_-]{22}$")
_HANDLE = re.compile(r"^@[A-Za-z0-9._-]{3,30}$")
_YOUTUBE_HOSTS = frozenset({"youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com"})
# Placeholders playlistItems.list keeps for videos that are gone or hidden: nothing to read.
_UNAVAILABLE_TITLES = frozenset({"Deleted video", "Private video"})
_PAGE_SIZE = 50  # the API's maximum
_RETRY_AFTER_MAX_SECONDS = 30.0
_REPLY_MAX_BYTES = 4 * 1024 * 1024  # a page of 50 items is about 100 KB


@dataclass(frozen=True)
class Collection:
    kind: CollectionKind
    # A playlist id; for a channel "UC…" (an id), "@name" (a handle) or "user:name" (legacy).
    ref: str


@dataclass(frozen=True)
class ListedVideo:
    video_id: str
    title: str


@dataclass(frozen=True)
class Listing:
    collection_id: str  # the playlist id, or the channel's UC… id
    videos: list[ListedVideo]


def parse_collection_url(url: str) -> Collection | None:
    """A playlist (`/playlist?list=`) or channel (`/channel/UC…`, `/@handle`, `/user/name`)
    URL, or None for anything else (a video link included, even with `&list=`)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or (parts.hostname or "").lower() not in (
        _YOUTUBE_HOSTS
    ):
        return None
    segments = [segment for segment in parts.path.split("/") if segment]
    if parts.path.rstrip("/") == "/playlist":
        playlist = (parse_qs(parts.query).get("list") or [""])[0]
        return Collection("playlist", playlist) if _PLAYLIST_ID.match(playlist) else None
    if len(segments) >= 2 and segments[0] == "channel" and _CHANNEL_ID.match(segments[1]):
        return Collection("channel", segments[1])
    if len(segments) >= 2 and segments[0] == "user":
        return Collection("channel", f"user:{segments[1]}")
    if segments and _HANDLE.match(segments[0]):
        return Collection("channel", segments[0])
    return None


def playlist_id_from_url(url: str) -> str:
    """A playlist id from a playlist link or a video link inside one (`watch?v=…&list=…`)."""
    collection = parse_collection_url(url)
    if collection is not None and collection.kind == "playlist":
        return collection.ref
    playlist = (parse_qs(urlsplit(url.strip()).query).get("list") or [""])[0]
    if not _PLAYLIST_ID.match(playlist):
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            "This is not a YouTube playlist link (expected youtube.com/playlist?list=…).",
        )
    return playlist


def channel_from_url(url: str) -> Collection:
    collection = parse_collection_url(url)
    if collection is None or collection.kind != "channel":
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            "This is not a YouTube channel link (expected youtube.com/@name, "
            "youtube.com/channel/UC… or youtube.com/user/name).",
        )
    return collection


def collection_list(collection: Collection) -> Listing:
    """The collection's videos (at most YOUTUBE_LIST_MAX_VIDEOS), deleted and private ones left
    out. A playlist or channel that does not exist is a DomainError saying so."""
    _require_key()
    if collection.kind == "playlist":
        return Listing(collection.ref, _playlist_videos(collection.ref))
    channel_id, uploads = _channel_uploads(collection.ref)
    return Listing(channel_id, _playlist_videos(uploads))


def _require_key() -> None:
    if not settings.YOUTUBE_API_KEY:
        raise DomainError(
            ErrorCode.NOT_CONFIGURED,
            "Reading YouTube playlists and channels needs a YouTube Data API key "
            "(YOUTUBE_API_KEY) on the server.",
        )


def _channel_uploads(ref: str) -> tuple[str, str]:
    if ref.startswith("@"):
        selector = {"forHandle": ref}
    elif ref.startswith("user:"):
        selector = {"forUsername": ref.removeprefix("user:")}
    else:
        selector = {"id": ref}
    answer = _get("channels", {"part": "contentDetails", **selector}, missing="channel")
    items = answer.get("items") or []
    uploads = ""
    if items:
        uploads = items[0].get("contentDetails", {}).get("relatedPlaylists", {}).get("uploads", "")
    if not uploads:
        raise DomainError(ErrorCode.FETCH_FAILED, "YouTube has no channel at this address.")
    return str(items[0].get("id", ref)), str(uploads)


def _playlist_videos(playlist_id: str) -> list[ListedVideo]:
    videos: dict[str, ListedVideo] = {}
    token = ""
    while len(videos) < settings.YOUTUBE_LIST_MAX_VIDEOS:
        params = {
            "part": "snippet,contentDetails",
            "playlistId": playlist_id,
            "maxResults": str(_PAGE_SIZE),
        }
        if token:
            params["pageToken"] = token
        answer = _get("playlistItems", params, missing="playlist")
        for item in answer.get("items") or []:
            video = _listed_video(item)
            if video is not None:
                videos.setdefault(video.video_id, video)
        token = str(answer.get("nextPageToken") or "")
        if not token:
            break
    return list(videos.values())[: settings.YOUTUBE_LIST_MAX_VIDEOS]


def _listed_video(item: dict[str, Any]) -> ListedVideo | None:
    snippet = item.get("snippet") or {}
    details = item.get("contentDetails") or {}
    video_id = str(details.get("videoId") or snippet.get("resourceId", {}).get("videoId") or "")
    title = str(snippet.get("title") or "")
    # A deleted or private entry keeps its place with a placeholder title and no publish date.
    if not video_id or title in _UNAVAILABLE_TITLES or "videoPublishedAt" not in details:
        return None
    return ListedVideo(video_id, title)


# --- transport ----------------------------------------------------------------------------------


def _get(resource: str, params: dict[str, str], *, missing: str) -> dict[str, Any]:
    url = f"{settings.YOUTUBE_DATA_API_URL.rstrip('/')}/{resource}"
    query = {**params, "key": settings.YOUTUBE_API_KEY}
    for attempt in range(settings.YOUTUBE_LIST_MAX_RETRIES + 1):
        try:
            response = requests.get(
                url, params=query, timeout=settings.CRAWLER_TIMEOUT_SECONDS, stream=True
            )
            response_read_capped(
                response, max_bytes=_REPLY_MAX_BYTES, too_large="YouTube sent too large a reply."
            )
        except requests.RequestException as exc:
            raise TransientError(ErrorCode.FETCH_FAILED, "YouTube could not be reached.") from exc
        retry = response.status_code == 429 or response.status_code >= 500
        if not retry or attempt == settings.YOUTUBE_LIST_MAX_RETRIES:
            break
        time.sleep(_retry_delay(response, attempt))
    return _answer(response, missing=missing)


def _retry_delay(response: requests.Response, attempt: int) -> float:
    try:
        delay = float(response.headers.get("Retry-After") or 0)
    except ValueError:
        delay = 0.0  # an HTTP date: wait as without one
    return min(delay or 0.5 * 2**attempt, _RETRY_AFTER_MAX_SECONDS)


def _answer(response: requests.Response, *, missing: str) -> dict[str, Any]:
    status = response.status_code
    if status == 429 or status >= 500:
        raise TransientError(ErrorCode.FETCH_FAILED, "YouTube is busy or failing; will retry.")
    reasons = _error_reasons(response)
    if status == 404 or "playlistNotFound" in reasons or "channelNotFound" in reasons:
        raise DomainError(ErrorCode.FETCH_FAILED, f"YouTube has no {missing} at this address.")
    if "quotaExceeded" in reasons or "rateLimitExceeded" in reasons:
        raise TransientError(ErrorCode.FETCH_FAILED, "The YouTube API quota is used up for now.")
    if status in (400, 403):
        logger.warning("YouTube Data API refused %s: %s", missing, reasons)
        raise DomainError(
            ErrorCode.FETCH_FAILED,
            f"YouTube refused to list this {missing} (check YOUTUBE_API_KEY).",
        )
    try:
        answer = response.json()
    except ValueError as exc:
        raise TransientError(ErrorCode.FETCH_FAILED, "YouTube sent an unreadable reply.") from exc
    if status != 200 or not isinstance(answer, dict):
        raise TransientError(ErrorCode.FETCH_FAILED, "YouTube sent an unreadable reply.")
    return answer


def _error_reasons(response: requests.Response) -> set[str]:
    try:
        errors = response.json().get("error", {}).get("errors", [])
        return {str(error.get("reason", "")) for error in errors}
    except (ValueError, AttributeError):
        return set()
