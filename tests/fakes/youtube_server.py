"""A loopback stand-in for the youtube.com endpoints the transcript client (youtube-transcript-api
1.2.5) calls. Standard library only; it shares no code with the client.

  GET  /watch?v=ID                   consent interstitial until a CONSENT cookie is sent, then the
                                     watch page: <title>, og:title, "INNERTUBE_API_KEY" in ytcfg
  POST /youtubei/v1/player?key=KEY   innertube player JSON: playabilityStatus, videoDetails and
                                     captions.playerCaptionsTracklistRenderer (captionTracks with
                                     baseUrl on https://www.youtube.com/api/timedtext, translations)
  GET  /api/timedtext?v=ID&lang=L    caption XML <transcript><text start dur>…</text></transcript>
                  [&tlang=T]         machine translation (here: each line prefixed with "[T]");
                                     or a video's malformed captions (`FakeVideo.caption_body`,
                                     an endless stream with `caption_stream_bytes`)

Default videos: TALK_ID has manual English captions; NO_CAPTIONS_ID has captions turned off (the
player answer carries no "captions" key); any other id is "This video is unavailable".

    with FakeYouTubeServer() as youtube:        # or the `youtube_server` fixture
        settings.YOUTUBE_BASE_URL = youtube.url
        ... youtube.requests ...
"""

import json
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from html import escape
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape as xml_escape

import pytest

from tests.fakes.loopback import LoopbackServer

API_KEY = "AIzaSyFakeInnertubeKey_0123456789"
CONSENT_VALUE = "cb.20240101-00-p0.en+FX+123"
TALK_ID = "PyTalk_2024"
NO_CAPTIONS_ID = "NoCaptions1"
TALK_TITLE = "Writing Fast Python & Staying Sane"


@dataclass(frozen=True)
class FakeTrack:
    language_code: str
    name: str
    snippets: tuple[tuple[float, float, str], ...]  # (start, duration, text)
    generated: bool = False
    translatable: bool = False


@dataclass(frozen=True)
class FakeVideo:
    title: str
    tracks: tuple[FakeTrack, ...] = ()  # no tracks: captions turned off
    player_status: int = 200  # anything else: the player endpoint fails with this status
    # Malformed captions: this body instead of the track's XML (broken on purpose), or, when
    # `caption_stream_bytes` > 0, an XML document that streams this many bytes of lines, made
    # as they are sent, with no Content-Length (`sent_caption_bytes` counts them).
    caption_body: str | None = None
    caption_stream_bytes: int = 0


def talk_snippets() -> tuple[tuple[float, float, str], ...]:
    """Three minutes of a talk, one line every 10 s, so grouping by time is visible."""
    lines = []
    for second in range(0, 180, 10):
        lines.append(
            (
                second + 0.5,
                9.0,
                f"At second {second} we talk about profiling topic{second}.",
            )
        )
    lines.append((180.5, 4.0, "Thanks &amp; goodbye <i>everyone</i>"))
    return tuple(lines)


def spoken(words: str) -> FakeVideo:
    """Two minutes of English captions saying `words`, one line every 10 s."""
    lines = tuple((float(s), 9.0, f"{words} at second {s}.") for s in range(0, 120, 10))
    return FakeVideo(title="(watch page title)", tracks=(FakeTrack("en", "English", lines),))


def default_videos() -> dict[str, FakeVideo]:
    english = FakeTrack("en", "English", talk_snippets(), translatable=True)
    return {
        TALK_ID: FakeVideo(title=TALK_TITLE, tracks=(english,)),
        NO_CAPTIONS_ID: FakeVideo(title="A silent film"),
    }


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class _State:
    videos: Mapping[str, FakeVideo]
    require_consent: bool
    requests: list[RecordedRequest] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    sent_caption_bytes: int = 0


class FakeYouTubeServer(LoopbackServer):
    def __init__(
        self,
        videos: Mapping[str, FakeVideo] | None = None,
        *,
        require_consent: bool = True,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.state = _State(
            videos=default_videos() if videos is None else videos,
            require_consent=require_consent,
        )
        self._listen(_YouTubeHandler, host=host, port=port, state=self.state)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self.state.lock:
            return list(self.state.requests)

    @property
    def sent_caption_bytes(self) -> int:
        with self.state.lock:
            return self.state.sent_caption_bytes


@pytest.fixture
def youtube_server() -> Iterator[FakeYouTubeServer]:
    with FakeYouTubeServer() as server:
        yield server


# --- The protocol ---------------------------------------------------------------------------------


class _YouTubeHandler(BaseHTTPRequestHandler):
    state: _State
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._record(None)
        parts = urlsplit(self.path)
        query = {key: values[0] for key, values in parse_qs(parts.query).items()}
        if parts.path == "/watch":
            self._watch(query.get("v", ""))
        elif parts.path == "/api/timedtext":
            self._timedtext(query)
        else:
            self._send(404, "text/html", "<h1>404</h1>")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            body = None
        self._record(body)
        parts = urlsplit(self.path)
        key = (parse_qs(parts.query).get("key") or [""])[0]
        if parts.path != "/youtubei/v1/player":
            self._send(404, "application/json", "{}")
        elif key != API_KEY:
            self._send(400, "application/json", json.dumps({"error": {"code": 400}}))
        else:
            self._player(body)

    def log_message(self, format: str, *args: Any) -> None:  # stdlib signature
        pass

    def _watch(self, video_id: str) -> None:
        if self.state.require_consent and f"CONSENT=YES+{CONSENT_VALUE}" not in (
            self.headers.get("Cookie") or ""
        ):
            self._send(200, "text/html", _consent_page())
            return
        video = self.state.videos.get(video_id)
        self._send(200, "text/html", _watch_page(video.title if video else None))

    def _player(self, body: Any) -> None:
        context = body.get("context", {}) if isinstance(body, dict) else {}
        video_id = body.get("videoId", "") if isinstance(body, dict) else ""
        if "client" not in context:
            self._send(400, "application/json", json.dumps({"error": {"code": 400}}))
            return
        video = self.state.videos.get(video_id)
        if video is not None and video.player_status != 200:
            self._send(video.player_status, "application/json", "{}")
            return
        self._send(200, "application/json", json.dumps(_player_answer(video_id, video)))

    def _timedtext(self, query: Mapping[str, str]) -> None:
        video = self.state.videos.get(query.get("v", ""))
        track = next(
            (t for t in (video.tracks if video else ()) if t.language_code == query.get("lang")),
            None,
        )
        if track is None or video is None:
            self._send(404, "text/html", "")
            return
        if video.caption_stream_bytes:
            self._stream_captions(video.caption_stream_bytes)
            return
        if video.caption_body is not None:
            self._send(200, "text/xml", video.caption_body)
            return
        target = query.get("tlang")
        lines = []
        for start, duration, text in track.snippets:
            shown = f"[{target}] {text}" if target else text
            lines.append(f'<text start="{start}" dur="{duration}">{xml_escape(shown)}</text>')
        xml = '<?xml version="1.0" encoding="utf-8" ?><transcript>' + "".join(lines)
        self._send(200, "text/xml", xml + "</transcript>")

    def _stream_captions(self, size: int) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/xml; charset=utf-8")
        self.send_header("Connection", "close")  # no length: the body ends when the socket does
        self.end_headers()
        self.close_connection = True
        line = b'<text start="1.0" dur="2.0">and so the talk goes on and on</text>\n'
        block = line * (65536 // len(line))
        sent = 0
        try:
            self.wfile.write(b'<?xml version="1.0" encoding="utf-8" ?><transcript>')
            while sent < size:
                self.wfile.write(block)
                sent += len(block)
                with self.state.lock:
                    self.state.sent_caption_bytes += len(block)
            self.wfile.write(b"</transcript>")
        except (BrokenPipeError, ConnectionResetError):
            return  # the reader stopped at its cap

    def _record(self, body: Any) -> None:
        request = RecordedRequest(self.command, self.path, dict(self.headers.items()), body)
        with self.state.lock:
            self.state.requests.append(request)

    def _send(self, status: int, content_type: str, text: str) -> None:
        payload = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", f"{content_type}; charset=utf-8")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


def _consent_page() -> str:
    return (
        "<html><head><title>Before you continue to YouTube</title></head><body>"
        '<form action="https://consent.youtube.com/s" method="POST">'
        f'<input type="hidden" name="v" value="{CONSENT_VALUE}">'
        '<button type="submit">Accept all</button></form></body></html>'
    )


def _watch_page(title: str | None) -> str:
    shown = escape(title) if title else ""
    head = (
        f'<title>{shown} - YouTube</title><meta property="og:title" content="{shown}">'
        if title
        else "<title>YouTube</title>"
    )
    config = json.dumps({"INNERTUBE_API_KEY": API_KEY, "INNERTUBE_CLIENT_NAME": "WEB"})
    return (
        f"<!DOCTYPE html><html><head>{head}</head><body>"
        f"<script>ytcfg.set({config});</script><div id='player'></div></body></html>"
    )


def _player_answer(video_id: str, video: FakeVideo | None) -> dict[str, Any]:
    if video is None:
        return {
            "playabilityStatus": {
                "status": "ERROR",
                "reason": "This video is unavailable",
            }
        }
    answer: dict[str, Any] = {
        "playabilityStatus": {"status": "OK", "playableInEmbed": True},
        "videoDetails": {"videoId": video_id, "title": video.title},
    }
    if video.tracks:
        answer["captions"] = {
            "playerCaptionsTracklistRenderer": {
                "captionTracks": [_caption_track(video_id, track) for track in video.tracks],
                "translationLanguages": [
                    {"languageCode": code, "languageName": {"runs": [{"text": name}]}}
                    for code, name in (
                        ("en", "English"),
                        ("de", "German"),
                        ("fr", "French"),
                    )
                ],
            }
        }
    return answer


def _caption_track(video_id: str, track: FakeTrack) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "baseUrl": (
            f"https://www.youtube.com/api/timedtext?v={video_id}&lang={track.language_code}"
            "&fmt=srv3"
        ),
        "name": {"runs": [{"text": track.name}]},
        "vssId": f".{track.language_code}",
        "languageCode": track.language_code,
        "isTranslatable": track.translatable,
    }
    if track.generated:
        entry["kind"] = "asr"
    return entry
