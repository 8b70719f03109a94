"""A loopback web server for crawler tests and benchmarks: serves a directory like a static host.

It behaves like nginx serving a built docs site: real ETag and Last-Modified validators with
304 answers to conditional GETs, `/dir` -> 301 `/dir/`, `/dir/` -> `dir/index.html`, and a
`x.xml.gz` request is answered with the gzipped `x.xml` when only the latter exists. The text
`{{BASE_URL}}` in served files becomes the server's own URL (sitemaps need absolute URLs and the
port is only known at start). Programmable routes stand in for what a directory cannot do:

    with DocsSite(root) as site:
        site.add_redirect("/old.html", "/intro.html")          # 302
        site.add_status("/gone.html", 404)
        site.add_slow("/slow.html", 2.0)                        # then served as usual
        site.add_huge("/huge.html", 10_000_000, declare_length=False)
        site.add_page("/data.bin", b"...", content_type="application/octet-stream")
        ... site.url ... site.requests_for("/intro.html")[-1].headers["If-None-Match"] ...

Standalone: python -m tests.fakes.docs_site --root DIR --port 8000
"""

import argparse
import contextlib
import email.utils
import gzip
import hashlib
import mimetypes
import shutil
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from tests.fakes.loopback import LoopbackServer

SMALL_DOCS = Path(__file__).resolve().parent / "sites" / "small_docs"
BASE_URL_MARKER = b"{{BASE_URL}}"
_CHUNK = 64 * 1024
_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".xml": "application/xml",
    ".gz": "application/gzip",
    ".js": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
}


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str  # with the query string, as sent
    headers: dict[str, str]

    def header(self, name: str) -> str | None:
        lowered = name.lower()
        return next((v for k, v in self.headers.items() if k.lower() == lowered), None)


@dataclass
class _Route:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    huge_size: int = 0  # > 0: stream this many bytes instead of `body`
    declare_length: bool = True


@dataclass
class _State:
    root: Path
    base_url: str = ""
    routes: dict[str, _Route] = field(default_factory=dict)
    delays: dict[str, float] = field(default_factory=dict)
    requests: list[RecordedRequest] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    # Notified when a delay changes, so the requests already waiting see the new one.
    delays_changed: threading.Condition = field(init=False)

    def __post_init__(self) -> None:
        self.delays_changed = threading.Condition(self.lock)


class DocsSite(LoopbackServer):
    def __init__(self, root: Path | str, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.state = _State(root=Path(root).resolve())
        self._listen(_SiteHandler, host=host, port=port, state=self.state)
        self.state.base_url = self.url

    @property
    def root(self) -> Path:
        return self.state.root

    def url_for(self, path: str) -> str:
        return f"{self.url}/{path.lstrip('/')}"

    # --- The request log ---

    @property
    def requests(self) -> list[RecordedRequest]:
        with self.state.lock:
            return list(self.state.requests)

    def requests_for(self, path: str) -> list[RecordedRequest]:
        return [r for r in self.requests if urlsplit(r.path).path == path]

    def requested_paths(self) -> list[str]:
        return [urlsplit(r.path).path for r in self.requests]

    def reset_log(self) -> None:
        with self.state.lock:
            self.state.requests.clear()

    # --- Programmable routes (they win over files) ---

    def add_page(
        self,
        path: str,
        body: bytes | str,
        *,
        status: int = 200,
        content_type: str = "text/html; charset=utf-8",
        headers: dict[str, str] | None = None,
    ) -> None:
        raw = body.encode() if isinstance(body, str) else body
        route_headers = {"Content-Type": content_type, **(headers or {})}
        self._add(path, _Route(status=status, body=raw, headers=route_headers))

    def add_redirect(self, path: str, location: str, *, status: int = 302) -> None:
        self._add(path, _Route(status=status, headers={"Location": location}))

    def add_status(self, path: str, status: int, body: bytes = b"") -> None:
        self._add(
            path,
            _Route(status=status, body=body, headers={"Content-Type": "text/plain"}),
        )

    def add_huge(self, path: str, size: int, *, declare_length: bool = True) -> None:
        """An HTML page of `size` bytes, with or without a Content-Length header."""
        route = _Route(
            huge_size=size,
            declare_length=declare_length,
            headers={"Content-Type": "text/html; charset=utf-8"},
        )
        self._add(path, route)

    def add_slow(self, path: str, seconds: float) -> None:
        """Wait `seconds` before answering `path` (whatever answers it: a route or a file). A
        request already waiting waits as the new value says: 0 lets it go at once."""
        with self.state.delays_changed:
            self.state.delays[path] = seconds
            self.state.delays_changed.notify_all()

    def _add(self, path: str, route: _Route) -> None:
        with self.state.lock:
            self.state.routes[path] = route


def copy_small_docs(directory: Path) -> Path:
    """A copy of the small docs site under `directory`, for tests that edit its files."""
    root = directory / "small_docs"
    shutil.copytree(SMALL_DOCS, root)
    return root


# --- Serving --------------------------------------------------------------------------------------


class _SiteHandler(BaseHTTPRequestHandler):
    state: _State
    protocol_version = "HTTP/1.1"  # keep-alive: a crawler reuses its connections
    # Headers and body go out in separate writes: with Nagle's algorithm on, each response
    # would wait for the client's delayed ACK (~40 ms), which is not what real servers do.
    disable_nagle_algorithm = True

    def do_GET(self) -> None:
        self._serve(send_body=True)

    def do_HEAD(self) -> None:
        self._serve(send_body=False)

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _serve(self, *, send_body: bool) -> None:
        path = unquote(urlsplit(self.path).path)
        with self.state.lock:
            self.state.requests.append(
                RecordedRequest(self.command, self.path, dict(self.headers.items()))
            )
            route = self.state.routes.get(path)
        self._wait_out(path, since=time.monotonic())
        if route is not None:
            self._send_route(route, send_body=send_body)
        else:
            self._send_file(path, send_body=send_body)

    def _wait_out(self, path: str, *, since: float) -> None:
        """Until the path's delay, counted from `since`, has passed (it may change meanwhile)."""
        with self.state.delays_changed:
            while (left := since + self.state.delays.get(path, 0.0) - time.monotonic()) > 0:
                self.state.delays_changed.wait(left)

    def _send_route(self, route: _Route, *, send_body: bool) -> None:
        if route.huge_size:
            self._send_huge(route, send_body=send_body)
            return
        self._send(route.status, route.body, route.headers, send_body=send_body)

    def _send_huge(self, route: _Route, *, send_body: bool) -> None:
        self.send_response(200)
        for name, value in route.headers.items():
            self.send_header(name, value)
        if route.declare_length:
            self.send_header("Content-Length", str(route.huge_size))
        else:
            self.send_header("Connection", "close")  # the body ends when the connection does
            self.close_connection = True
        self.end_headers()
        if not send_body:
            return
        chunk = b"<p>" + b"x" * (_CHUNK - 8) + b"</p>\n"
        sent = 0
        while sent < route.huge_size:
            piece = chunk[: route.huge_size - sent]
            self.wfile.write(piece)
            sent += len(piece)

    def _send_file(self, path: str, *, send_body: bool) -> None:
        file = _resolve(self.state.root, path)
        if file is not None and file.is_dir():
            self._send(301, b"", {"Location": path + "/"}, send_body=send_body)
            return
        content = _file_content(self.state, file, path)
        if file is None or content is None:
            self._send(404, b"Not Found", {"Content-Type": "text/plain"}, send_body=send_body)
            return
        mtime = (file if file.is_file() else file.with_suffix("")).stat().st_mtime
        validators = {
            "ETag": '"' + hashlib.sha256(content).hexdigest()[:20] + '"',
            "Last-Modified": email.utils.formatdate(mtime, usegmt=True),
        }
        if _not_modified(self.headers, validators["ETag"], mtime):
            self._send(304, b"", validators, send_body=False)
            return
        headers = {"Content-Type": _content_type(path), **validators}
        self._send(200, content, headers, send_body=send_body)

    def _send(self, status: int, body: bytes, headers: dict[str, str], *, send_body: bool) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body and status != 304:
            self.wfile.write(body)


def _resolve(root: Path, path: str) -> Path | None:
    """The file a URL path names, or None; never a file outside the root."""
    candidate = (root / path.lstrip("/")).resolve()
    if candidate != root and root not in candidate.parents:
        return None
    if path.endswith("/"):
        candidate = candidate / "index.html"
    if candidate.is_dir() or candidate.is_file():
        return candidate
    if path.endswith(".gz") and candidate.with_suffix("").is_file():
        return candidate  # served as the gzip of the uncompressed file
    return None


def _file_content(state: _State, file: Path | None, path: str) -> bytes | None:
    if file is None:
        return None
    if file.is_file():
        raw = file.read_bytes()
    elif path.endswith(".gz"):
        plain = file.with_suffix("").read_bytes()
        return gzip.compress(_templated(state, plain), mtime=0)
    else:
        return None
    return _templated(state, raw)


def _templated(state: _State, raw: bytes) -> bytes:
    if BASE_URL_MARKER not in raw:
        return raw
    return raw.replace(BASE_URL_MARKER, state.base_url.encode())


def _content_type(path: str) -> str:
    suffix = Path(path).suffix.lower() if not path.endswith("/") else ".html"
    if suffix in _TYPES:
        return _TYPES[suffix]
    return mimetypes.guess_type(path)[0] or "application/octet-stream"


def _not_modified(request_headers: Any, etag: str, mtime: float) -> bool:
    # RFC 9110: If-None-Match wins; If-Modified-Since only counts without it.
    if_none_match = request_headers.get("If-None-Match")
    if if_none_match is not None:
        tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
        return "*" in tags or etag in tags
    if_modified_since = request_headers.get("If-Modified-Since")
    if if_modified_since:
        try:
            since = email.utils.parsedate_to_datetime(if_modified_since).timestamp()
        except (TypeError, ValueError):
            return False
        return int(mtime) <= since
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--root", type=Path, default=SMALL_DOCS, help="directory to serve")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    site = DocsSite(args.root, host=args.host, port=args.port)
    print(f"Serving {site.root} on {site.url}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        site.serve_forever()


if __name__ == "__main__":
    main()
