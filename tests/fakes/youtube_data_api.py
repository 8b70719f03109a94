"""A loopback stand-in for the YouTube Data API v3 calls that list a playlist or a channel.
Standard library only; it shares no code with the client.

  GET /youtube/v3/playlistItems?part=snippet,contentDetails&playlistId=ID&maxResults=N
                               [&pageToken=T]&key=K
      youtube#playlistItemListResponse pages (`page_size` items, nextPageToken while more);
      a deleted entry keeps its place as "Deleted video" without videoPublishedAt;
      an unknown playlist: 404 with reason playlistNotFound
  GET /youtube/v3/channels?part=contentDetails&(id=UC…|forHandle=@h|forUsername=u)&key=K
      youtube#channelListResponse; relatedPlaylists.uploads names the uploads playlist;
      an unknown channel: 200 with no "items" (as the real API answers)
  A wrong key: 400 keyInvalid. `fail_next` queues replies sent instead of the next requests
  (429 with Retry-After, 5xx), as the API does when rate limited or failing.

    with FakeYouTubeDataApi(playlists={...}) as api:
        settings.YOUTUBE_DATA_API_URL = api.url + "/youtube/v3"
"""

import json
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.fakes.loopback import LoopbackServer

DATA_API_KEY = "AIzaSyFakeDataApiKey_0123456789abcd"


@dataclass(frozen=True)
class FakeEntry:
    video_id: str
    title: str
    deleted: bool = False


@dataclass(frozen=True)
class FakeChannel:
    channel_id: str
    handle: str
    uploads: str  # a playlist id in `playlists`


@dataclass
class _State:
    playlists: dict[str, list[FakeEntry]]
    channels: list[FakeChannel]
    page_size: int
    failures: deque[tuple[int, str | None]] = field(default_factory=deque)
    paths: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class FakeYouTubeDataApi(LoopbackServer):
    def __init__(
        self,
        playlists: Mapping[str, list[FakeEntry]] | None = None,
        *,
        channels: list[FakeChannel] | None = None,
        page_size: int = 2,
    ) -> None:
        self.state = _State(dict(playlists or {}), list(channels or []), page_size)
        self._listen(_DataApiHandler, host="127.0.0.1", port=0, state=self.state)

    @property
    def api_url(self) -> str:
        return f"{self.url}/youtube/v3"

    def fail_next(self, status: int, *, retry_after: str | None = None, times: int = 1) -> None:
        with self.state.lock:
            self.state.failures.extend([(status, retry_after)] * times)

    def set_playlist(self, playlist_id: str, entries: list[FakeEntry]) -> None:
        with self.state.lock:
            self.state.playlists[playlist_id] = list(entries)

    @property
    def paths(self) -> list[str]:
        with self.state.lock:
            return list(self.state.paths)


class _DataApiHandler(BaseHTTPRequestHandler):
    state: _State
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = {key: values[0] for key, values in parse_qs(parts.query).items()}
        with self.state.lock:
            self.state.paths.append(self.path)
            failure = self.state.failures.popleft() if self.state.failures else None
        if failure is not None:
            status, retry_after = failure
            headers = {"Retry-After": retry_after} if retry_after else {}
            self._send(
                status,
                _error(status, "rateLimitExceeded", "Too many requests"),
                headers,
            )
        elif query.get("key") != DATA_API_KEY:
            self._send(400, _error(400, "keyInvalid", "API key not valid."))
        elif parts.path == "/youtube/v3/playlistItems":
            self._playlist_items(query)
        elif parts.path == "/youtube/v3/channels":
            self._channels(query)
        else:
            self._send(404, _error(404, "notFound", "Not Found"))

    def log_message(self, format: str, *args: Any) -> None:  # stdlib signature
        pass

    def _playlist_items(self, query: Mapping[str, str]) -> None:
        playlist_id = query.get("playlistId", "")
        with self.state.lock:
            entries = list(self.state.playlists.get(playlist_id, []))
            known = playlist_id in self.state.playlists
        if not known:
            message = "The playlist identified with the request's playlistId cannot be found."
            self._send(404, _error(404, "playlistNotFound", message))
            return
        size = min(int(query.get("maxResults", "5")), self.state.page_size)
        start = int(query.get("pageToken", "0") or 0)
        page = entries[start : start + size]
        answer: dict[str, Any] = {
            "kind": "youtube#playlistItemListResponse",
            "etag": f"etag-{playlist_id}-{start}",
            "items": [_item(playlist_id, start + n, entry) for n, entry in enumerate(page)],
            "pageInfo": {"totalResults": len(entries), "resultsPerPage": size},
        }
        if start + size < len(entries):
            answer["nextPageToken"] = str(start + size)
        self._send(200, answer)

    def _channels(self, query: Mapping[str, str]) -> None:
        with self.state.lock:
            channels = list(self.state.channels)
        found = [
            channel
            for channel in channels
            if query.get("id") == channel.channel_id
            or query.get("forHandle") in (channel.handle, channel.handle.removeprefix("@"))
            or query.get("forUsername") == channel.handle.removeprefix("@")
        ]
        answer: dict[str, Any] = {
            "kind": "youtube#channelListResponse",
            "etag": "etag-channels",
            "pageInfo": {"totalResults": len(found), "resultsPerPage": 5},
        }
        if found:
            answer["items"] = [
                {
                    "kind": "youtube#channel",
                    "etag": f"etag-{channel.channel_id}",
                    "id": channel.channel_id,
                    "contentDetails": {
                        "relatedPlaylists": {"likes": "", "uploads": channel.uploads}
                    },
                }
                for channel in found
            ]
        self._send(200, answer)

    def _send(self, status: int, body: Any, headers: Mapping[str, str] | None = None) -> None:
        payload = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(payload)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)


def _item(playlist_id: str, position: int, entry: FakeEntry) -> dict[str, Any]:
    snippet: dict[str, Any] = {
        "publishedAt": "2024-05-01T10:00:00Z",
        "channelId": "UCfakeChannel000000000000",
        "title": "Deleted video" if entry.deleted else entry.title,
        "description": "This video is unavailable." if entry.deleted else "",
        "playlistId": playlist_id,
        "position": position,
        "resourceId": {"kind": "youtube#video", "videoId": entry.video_id},
    }
    details: dict[str, Any] = {"videoId": entry.video_id}
    if not entry.deleted:
        snippet["videoOwnerChannelTitle"] = "Fake Channel"
        details["videoPublishedAt"] = "2024-04-30T09:00:00Z"
    return {
        "kind": "youtube#playlistItem",
        "etag": f"etag-{entry.video_id}",
        "id": f"item-{playlist_id}-{position}",
        "snippet": snippet,
        "contentDetails": details,
    }


def _error(status: int, reason: str, message: str) -> dict[str, Any]:
    return {
        "error": {
            "code": status,
            "message": message,
            "errors": [{"message": message, "domain": "youtube.api", "reason": reason}],
        }
    }
