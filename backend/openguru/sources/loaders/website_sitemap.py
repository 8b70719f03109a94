"""Sitemaps (sitemaps.org): URL sets, sitemap indexes (followed recursively), gzip, plain text.

Sitemaps come from the site being indexed, so they are parsed defensively: no entities, no
network access from the XML parser, bounded size after decompression (per sitemap and in
total), bounded recursion.
"""

import logging
import zlib
from urllib.parse import urlsplit

import httpx
import lxml.etree

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.loaders.ssrf import safe_fetch

logger = logging.getLogger(__name__)

SITEMAP_MAX_BYTES = 50 * 1024 * 1024  # the protocol's own limit for one sitemap, uncompressed
# All the sitemaps of one load together (an index may list a hundred sitemaps of 50 MB each).
SITEMAPS_MAX_TOTAL_BYTES = 4 * SITEMAP_MAX_BYTES
MAX_SITEMAPS = 100  # index files plus URL sets, per load
MAX_INDEX_DEPTH = 3
MAX_URLS = 200_000
_ACCEPT = "application/xml,text/xml;q=0.9,*/*;q=0.5"
_GZIP_MAGIC = b"\x1f\x8b"


def is_sitemap_url(url: str) -> bool:
    path = urlsplit(url).path.lower()
    return path.endswith((".xml", ".xml.gz", ".txt")) or "sitemap" in path.rsplit("/", 1)[-1]


def _gunzip(data: bytes, url: str) -> bytes:
    decompressor = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        plain = decompressor.decompress(data, SITEMAP_MAX_BYTES + 1)
    except zlib.error as exc:
        raise DomainError(ErrorCode.INVALID_FILE, f"{url} is not a valid gzip file.") from exc
    if len(plain) > SITEMAP_MAX_BYTES or decompressor.unconsumed_tail:
        raise DomainError(ErrorCode.FILE_TOO_LARGE, f"{url} is too large once decompressed.")
    return plain


def _locs(root: lxml.etree._Element) -> list[str]:
    return [
        (element.text or "").strip()
        for element in root.iter()
        if isinstance(element.tag, str)
        and lxml.etree.QName(element).localname == "loc"
        and (element.text or "").strip()
    ]


def _parse(data: bytes, url: str) -> tuple[str, list[str]]:
    """("index" | "urlset", locations) of one sitemap document."""
    if not data.lstrip().startswith(b"<"):
        lines = data.decode("utf-8", errors="replace").splitlines()
        return "urlset", [line.strip() for line in lines if line.strip().startswith("http")]
    parser = lxml.etree.XMLParser(
        resolve_entities=False, no_network=True, recover=True, huge_tree=False
    )
    try:
        root = lxml.etree.fromstring(data, parser=parser)
    except lxml.etree.XMLSyntaxError as exc:
        raise DomainError(ErrorCode.INVALID_FILE, f"{url} is not a valid sitemap.") from exc
    if root is None:
        raise DomainError(ErrorCode.INVALID_FILE, f"{url} is not a valid sitemap.")
    kind = "index" if lxml.etree.QName(root).localname == "sitemapindex" else "urlset"
    return kind, _locs(root)


class _Reader:
    def __init__(self, client: httpx.Client) -> None:
        self.client = client
        self.visited: set[str] = set()
        self.urls: list[str] = []
        self.budget = SITEMAPS_MAX_TOTAL_BYTES  # bytes still allowed to download

    def read(self, url: str, *, depth: int, strict: bool) -> None:
        if url in self.visited or len(self.visited) >= MAX_SITEMAPS or self.budget <= 0:
            return
        self.visited.add(url)
        try:
            kind, locations = self._fetch(url)
        except DomainError as exc:
            if strict:
                raise
            logger.info("skipped sitemap %s: %s", url, exc.msg)
            return
        if kind == "urlset":
            self.urls.extend(locations[: MAX_URLS - len(self.urls)])
            return
        if depth >= MAX_INDEX_DEPTH:
            return
        host = urlsplit(url).netloc
        for child in locations:
            if urlsplit(child).netloc == host and len(self.urls) < MAX_URLS:
                self.read(child, depth=depth + 1, strict=False)

    def _fetch(self, url: str) -> tuple[str, list[str]]:
        max_bytes = min(SITEMAP_MAX_BYTES, self.budget)
        try:
            body = safe_fetch(
                url, headers={"Accept": _ACCEPT}, max_bytes=max_bytes, client=self.client
            ).body
        except DomainError as exc:
            if exc.code == ErrorCode.FILE_TOO_LARGE:
                self.budget -= max_bytes  # read up to the cap before it was refused
            raise
        self.budget -= len(body)
        data = _gunzip(body, url) if body.startswith(_GZIP_MAGIC) else body
        return _parse(data, url)


def sitemap_page_urls(candidates: list[str], *, client: httpx.Client) -> list[str]:
    """Page URLs of the first candidate sitemap that can be read (indexes followed).

    Raises the first candidate's error when none can be read.
    """
    first_error: DomainError | None = None
    for candidate in candidates:
        reader = _Reader(client)
        try:
            reader.read(candidate, depth=0, strict=True)
        except DomainError as exc:
            if exc.code == ErrorCode.URL_NOT_ALLOWED:
                raise  # a guard refusal is never hidden behind "no sitemap found"
            first_error = first_error or exc
            continue
        return reader.urls
    if first_error is not None and len(candidates) == 1:
        raise first_error
    raise DomainError(
        ErrorCode.FETCH_FAILED,
        "No sitemap found (tried " + ", ".join(candidates) + ").",
    ) from first_error
