"""Which URLs a website load may fetch: canonical URLs, crawl limits and path patterns, scope."""

import fnmatch
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit
from urllib.robotparser import RobotFileParser

from django.conf import settings

from openguru.core.errors import DomainError, ErrorCode

# Links to these are never pages; skipping them saves a request each (the content type is the
# real test, applied to whatever is fetched).
SKIPPED_EXTENSIONS = frozenset(
    {
        ".pdf", ".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".tar", ".whl", ".egg", ".exe",
        ".dmg", ".iso", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico", ".bmp", ".tif",
        ".tiff", ".css", ".js", ".mjs", ".map", ".json", ".xml", ".rss", ".atom", ".woff",
        ".woff2", ".ttf", ".otf", ".eot", ".mp3", ".mp4", ".m4a", ".ogg", ".wav", ".webm", ".mov",
        ".avi", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".epub", ".csv",
    }
)  # fmt: skip
_INDEX_FILES = ("index.html", "index.htm")


# --- URLs -----------------------------------------------------------------------------------------


def canonical_url(href: str) -> str | None:
    """http(s) URL with lowercase scheme and host, no default port, no fragment; else None."""
    try:
        parts = urlsplit(href.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    default_port = 443 if scheme == "https" else 80
    netloc = host if port in (None, default_port) else f"{host}:{port}"
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


def dedupe_key(url: str) -> str:
    """`/guide/index.html` and `/guide/` are one page on nearly every static host."""
    parts = urlsplit(url)
    path = parts.path
    for index in _INDEX_FILES:
        if path.endswith("/" + index):
            path = path[: -len(index)]
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def directory_of(url: str) -> str:
    path = urlsplit(url).path or "/"
    return path[: path.rfind("/") + 1]


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


# --- Options --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PathFilter:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def wanted(self, path: str) -> bool:
        if any(_matches(pattern, path) for pattern in self.exclude):
            return False
        return not self.include or any(_matches(pattern, path) for pattern in self.include)


def _matches(pattern: str, path: str) -> bool:
    if pattern.startswith("^"):
        return re.search(pattern, path) is not None
    if not pattern.startswith(("/", "*")):
        pattern = "*/" + pattern
    return fnmatch.fnmatchcase(path, pattern)


def _patterns(options: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = options.get(key) or ()
    patterns = (value,) if isinstance(value, str) else tuple(str(p) for p in value)
    for pattern in patterns:
        if pattern.startswith("^"):
            try:
                re.compile(pattern)
            except re.error as exc:
                msg = f"{key}: {pattern!r} is not a valid regular expression ({exc})."
                raise DomainError(ErrorCode.INVALID_INPUT, msg) from exc
    return tuple(p for p in patterns if p.strip())


def _bounded_int(options: Mapping[str, Any], key: str, ceiling: int, floor: int) -> int:
    value = options.get(key)
    if value is None or value == "":
        return ceiling
    try:
        number = int(value)
    except (TypeError, ValueError) as exc:
        raise DomainError(ErrorCode.INVALID_INPUT, f"{key} must be a whole number.") from exc
    return max(floor, min(number, ceiling))


@dataclass(frozen=True)
class CrawlLimits:
    max_pages: int
    max_depth: int
    paths: PathFilter
    stay_under_path: bool

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "CrawlLimits":
        return cls(
            max_pages=_bounded_int(options, "max_pages", settings.CRAWLER_MAX_PAGES, 1),
            max_depth=_bounded_int(options, "max_depth", settings.CRAWLER_MAX_DEPTH, 0),
            paths=PathFilter(
                include=_patterns(options, "include_patterns"),
                exclude=_patterns(options, "exclude_patterns"),
            ),
            stay_under_path=bool(options.get("stay_under_path", True)),
        )


@dataclass(frozen=True)
class CrawlScope:
    """Which discovered URLs a crawl may fetch."""

    origin: str
    path_prefix: str
    paths: PathFilter
    robots: RobotFileParser

    def allows(self, url: str) -> bool:
        path = urlsplit(url).path
        lowered = path.lower()
        return (
            origin_of(url) == self.origin
            and path.startswith(self.path_prefix)
            and not any(lowered.endswith(ext) for ext in SKIPPED_EXTENSIONS)
            and self.paths.wanted(path)
            and self.robots.can_fetch(settings.CRAWLER_USER_AGENT, url)
        )
