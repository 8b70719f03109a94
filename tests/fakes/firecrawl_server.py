"""A loopback stand-in for the Firecrawl v2 API (the endpoints the Python SDK calls for scrape and
crawl). Standard library plus lxml; it shares no code with the loader.

  POST   /v2/scrape       {"url", "formats", "onlyMainContent", ...}
                          -> {"success": true, "data": {"markdown", "metadata": {...}}}
  POST   /v2/crawl        {"url", "limit", "includePaths", "excludePaths", "sitemap",
                           "crawlEntireDomain", "ignoreRobotsTxt", "scrapeOptions", ...}
                          -> {"success": true, "id", "url"}
  GET    /v2/crawl/{id}[?skip=N]
                          -> {"success": true, "status", "total", "completed", "creditsUsed",
                              "expiresAt", "next", "data": [document, ...]}
  DELETE /v2/crawl/{id}   -> {"success": true, "status": "cancelled"}

Pages come from a directory of HTML files (the small docs site): a URL's path names a file,
whatever its host, so the stand-in never fetches anything. It renders them as markdown the way
Firecrawl does (headings as #, code fenced, chrome dropped). A crawl lists the HTML files under
the start URL's directory, honours robots.txt, the path regexes, `sitemap: "only"` (the URLs of
sitemap.xml) and `limit`, and answers its status in pages of `page_size` documents linked by
`next`. `scraping_polls` status calls answer "scraping" before the job completes.

`break_replies(kind)` makes every authorized call answer malformed: "truncated" (JSON cut off
mid-document), "wrong-shape" (valid JSON, not the API's form) or "endless" (a JSON document that
streams up to GIGABYTE bytes, with no Content-Length; `sent_bytes` counts them).

Standalone: python -m tests.fakes.firecrawl_server --root DIR --port 3002 --api-key KEY
"""

import argparse
import contextlib
import itertools
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit
from urllib.robotparser import RobotFileParser

import lxml.html

from tests.fakes.loopback import LoopbackServer

_CHROME = (
    "//script | //style | //nav | //header[not(.//h1)] | //footer | //aside | //form"
    " | //*[contains(@class, 'headerlink') or contains(@class, 'sphinxsidebar')"
    " or contains(@class, 'related') or contains(@class, 'footer')]"
)


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class _Job:
    documents: list[dict[str, Any]]
    polls_left: int
    status: str = "scraping"


@dataclass
class _State:
    root: Path
    api_key: str
    page_size: int
    scraping_polls: int
    base_url: str = ""
    fail_jobs: bool = False
    broken: str = ""  # "" | "truncated" | "wrong-shape" | "endless"
    sent_bytes: int = 0
    jobs: dict[str, _Job] = field(default_factory=dict)
    ids: Any = field(default_factory=lambda: itertools.count(1))
    requests: list[RecordedRequest] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class FakeFirecrawlServer(LoopbackServer):
    def __init__(
        self,
        root: Path | str,
        *,
        api_key: str = "fc-test-key",
        page_size: int = 3,
        scraping_polls: int = 0,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.state = _State(
            root=Path(root).resolve(),
            api_key=api_key,
            page_size=page_size,
            scraping_polls=scraping_polls,
        )
        self._listen(_FirecrawlHandler, host=host, port=port, state=self.state)
        self.state.base_url = self.url

    @property
    def requests(self) -> list[RecordedRequest]:
        with self.state.lock:
            return list(self.state.requests)

    def fail_jobs(self, fail: bool = True) -> None:
        """Crawl jobs end "failed" instead of "completed"."""
        with self.state.lock:
            self.state.fail_jobs = fail

    def break_replies(self, kind: str = "") -> None:
        """Malformed replies from now on (the module says which); "" for sound ones again."""
        assert kind in ("", "endless", *_BROKEN), kind
        with self.state.lock:
            self.state.broken, self.state.sent_bytes = kind, 0

    @property
    def sent_bytes(self) -> int:
        with self.state.lock:
            return self.state.sent_bytes


class _FirecrawlHandler(BaseHTTPRequestHandler):
    state: _State
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes: with Nagle's algorithm on, each response
    # would wait for the client's delayed ACK (~40 ms), which is not what real servers do.
    disable_nagle_algorithm = True

    def do_GET(self) -> None:
        self._serve(None)

    def do_DELETE(self) -> None:
        self._serve(None)

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            self._send(400, {"success": False, "error": "Bad Request: invalid JSON"})
            return
        self._serve(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _serve(self, body: Any) -> None:
        with self.state.lock:
            self.state.requests.append(
                RecordedRequest(self.command, self.path, dict(self.headers.items()), body)
            )
        if self.headers.get("Authorization") != f"Bearer {self.state.api_key}":
            self._send(401, {"success": False, "error": "Unauthorized: Invalid token"})
            return
        if self.state.broken:
            self._send_broken(self.state.broken)
            return
        self._send(*_route(self.state, self.command, self.path, body))

    def _send_broken(self, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if kind != "endless":
            payload = _BROKEN[kind]
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
            return
        self.send_header("Connection", "close")  # no length: the body ends when the socket does
        self.end_headers()
        self.close_connection = True
        block = b"a" * 65536
        try:
            self.wfile.write(b'{"success": true, "data": {"markdown": "')
            while self.state.sent_bytes < GIGABYTE:
                self.wfile.write(block)
                with self.state.lock:
                    self.state.sent_bytes += len(block)
        except (BrokenPipeError, ConnectionResetError):
            return  # the reader stopped at its cap

    def _send(self, status: int, answer: Any) -> None:
        payload = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


GIGABYTE = 1 << 30
_BROKEN = {
    "truncated": b'{"success": true, "data": {"markdown": "# Aardvarks\\n\\nThe aardvark di',
    "wrong-shape": b'{"success": true, "id": 7, "data": "no document", "next": 12}',
}


# --- The API --------------------------------------------------------------------------------------


def _route(state: _State, method: str, path: str, body: Any) -> tuple[int, Any]:
    parts = urlsplit(path)
    if method == "POST" and parts.path == "/v2/scrape":
        return 200, {"success": True, "data": _scrape(state, str(body.get("url", "")))}
    if method == "POST" and parts.path == "/v2/crawl":
        return _start_crawl(state, body)
    match = re.fullmatch(r"/v2/crawl/([\w-]+)", parts.path)
    if match and method == "GET":
        skip = int(parse_qs(parts.query).get("skip", ["0"])[0])
        return _crawl_status(state, match.group(1), skip)
    if match and method == "DELETE":
        return 200, {"success": True, "status": "cancelled"}
    return 404, {"success": False, "error": f"Not found: {method} {parts.path}"}


def _file_for(root: Path, url: str) -> Path | None:
    path = urlsplit(url).path
    candidate = (root / path.lstrip("/")).resolve()
    if path.endswith("/") or candidate.is_dir():
        candidate = candidate / "index.html"
    return candidate if candidate.is_file() and root in candidate.parents else None


def _scrape(state: _State, url: str) -> dict[str, Any]:
    file = _file_for(state.root, url)
    metadata: dict[str, Any] = {
        "sourceURL": url,
        "url": url,
        "scrapeId": f"scrape-{url}",
    }
    if file is None:
        return {
            "markdown": "",
            "metadata": {**metadata, "statusCode": 404, "title": "Not Found"},
        }
    title, markdown = _markdown(file.read_bytes())
    return {
        "markdown": markdown,
        "metadata": {**metadata, "statusCode": 200, "title": title, "language": "en"},
    }


def _markdown(html: bytes) -> tuple[str, str]:
    document = lxml.html.document_fromstring(html)
    title = (document.findtext(".//title") or "").strip()
    for element in document.xpath(_CHROME):
        if element.getparent() is not None:
            element.drop_tree()
    lines: list[str] = []
    for element in document.iter("h1", "h2", "h3", "h4", "h5", "h6", "p", "pre", "li", "dt", "dd"):
        text = " ".join(element.text_content().split())
        if element.tag == "pre":
            lines.append("```\n" + element.text_content().strip() + "\n```")
        elif element.tag.startswith("h"):
            lines.append("#" * int(element.tag[1]) + " " + text)
        elif element.tag == "li":
            lines.append("- " + text)
        elif element.tag != "dd":  # a <dd>'s paragraphs come on their own
            lines.append(text)
    return title, "\n\n".join(line for line in lines if line.strip()) + "\n"


def _site_urls(state: _State, start_url: str, sitemap_only: bool) -> list[str]:
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(start_url))
    if sitemap_only:
        sitemap = (state.root / "sitemap.xml").read_text().replace("{{BASE_URL}}", origin)
        return re.findall(r"<loc>\s*([^<\s]+)\s*</loc>", sitemap)
    paths = sorted(p.relative_to(state.root).as_posix() for p in state.root.rglob("*.html"))
    start_path = urlsplit(start_url).path or "/"
    first = [p for p in paths if "/" + p in (start_path, start_path + "index.html")]
    return [f"{origin}/{p}" for p in first + [p for p in paths if p not in first]]


def _robots(state: _State) -> RobotFileParser:
    parser = RobotFileParser()
    robots = state.root / "robots.txt"
    parser.parse(robots.read_text().splitlines() if robots.is_file() else [])
    return parser


def _crawl_allows(body: dict[str, Any], robots: RobotFileParser, url: str) -> bool:
    start, path = urlsplit(str(body["url"])), urlsplit(url).path
    if urlsplit(url).netloc != start.netloc:
        return False
    prefix = start.path[: start.path.rfind("/") + 1] or "/"
    if not body.get("crawlEntireDomain") and not path.startswith(prefix):
        return False
    if any(re.search(p, path) for p in body.get("excludePaths") or []):
        return False
    include = body.get("includePaths") or []
    if include and not any(re.search(p, path) for p in include):
        return False
    return bool(body.get("ignoreRobotsTxt")) or robots.can_fetch("FirecrawlAgent", url)


def _start_crawl(state: _State, body: Any) -> tuple[int, Any]:
    if not isinstance(body, dict) or not body.get("url"):
        return 400, {"success": False, "error": "Bad Request: url is required"}
    robots = _robots(state)
    urls = _site_urls(state, str(body["url"]), body.get("sitemap") == "only")
    allowed = [u for u in urls if _crawl_allows(body, robots, u)][: int(body.get("limit") or 10000)]
    documents = [_scrape(state, url) for url in allowed]
    with state.lock:
        job_id = f"job-{next(state.ids)}"
        state.jobs[job_id] = _Job(documents=documents, polls_left=state.scraping_polls)
    return 200, {
        "success": True,
        "id": job_id,
        "url": f"{state.base_url}/v2/crawl/{job_id}",
    }


def _crawl_status(state: _State, job_id: str, skip: int) -> tuple[int, Any]:
    with state.lock:
        job = state.jobs.get(job_id)
        if job is None:
            return 404, {"success": False, "error": "Job not found"}
        if job.polls_left > 0:
            job.polls_left -= 1
        elif job.status == "scraping":
            job.status = "failed" if state.fail_jobs else "completed"
    total = len(job.documents)
    answer: dict[str, Any] = {
        "success": True,
        "status": job.status,
        "total": total,
        "completed": total if job.status == "completed" else total // 2,
        "creditsUsed": total,
        "expiresAt": "2030-01-01T00:00:00.000Z",
        "next": None,
        "data": [],
    }
    if job.status == "completed":
        answer["data"] = job.documents[skip : skip + state.page_size]
        if skip + state.page_size < total:
            answer["next"] = f"{state.base_url}/v2/crawl/{job_id}?skip={skip + state.page_size}"
    return 200, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=3002)
    parser.add_argument("--api-key", default="fc-test-key")
    args = parser.parse_args()
    server = FakeFirecrawlServer(args.root, api_key=args.api_key, host=args.host, port=args.port)
    print(f"Fake Firecrawl API on {server.url}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


if __name__ == "__main__":
    main()
