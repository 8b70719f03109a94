"""Does an embedding page's origin match a widget's allowed domain pattern?

Patterns name a scheme, a host and a port; what a pattern leaves out is narrow, never wide:
- "https://docs.example.com": that origin only (port 443; not :8443);
- "docs.example.com": http or https on their default ports;
- "*.example.com": its sub-domains (not example.com itself), on the default ports;
- "http://localhost:8080" one port, "http://localhost:*" any port;
- "*": any site, said explicitly. An empty pattern grants nothing.
"""

from dataclasses import dataclass
from urllib.parse import urlsplit

ANY_SITE = "*"
_DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class _Parts:
    scheme: str  # "" in a pattern: http or https
    host: str
    port: int | None  # None in a pattern: the scheme's default; -1: any port


def _parts(value: str) -> _Parts | None:
    """The scheme, host and port of an origin or pattern; None when it names no host or its
    port is not a port."""
    parts = urlsplit(value if "://" in value else f"//{value}")
    host = (parts.hostname or "").lower()
    if not host or parts.path not in ("", "/") or parts.query or parts.username:
        return None
    if parts.netloc.endswith(":*"):
        return _Parts(parts.scheme.lower(), host, -1)
    try:
        port = parts.port
    except ValueError:
        return None
    return _Parts(parts.scheme.lower(), host, port)


def domain_pattern_valid(pattern: str) -> bool:
    pattern = pattern.strip()
    if pattern == ANY_SITE:
        return True
    parts = _parts(pattern)
    return parts is not None and parts.scheme in ("", *_DEFAULT_PORTS)


def origin_allowed(*, pattern: str, origin: str) -> bool:
    pattern, page = pattern.strip(), _parts(origin.strip())
    if not pattern or page is None or page.scheme not in _DEFAULT_PORTS:
        return False
    if pattern == ANY_SITE:
        return True
    want = _parts(pattern)
    if want is None or (want.scheme and page.scheme != want.scheme):
        return False
    page_port = page.port or _DEFAULT_PORTS[page.scheme]
    if want.port != -1 and page_port != (want.port or _DEFAULT_PORTS[page.scheme]):
        return False
    if want.host.startswith("*."):
        return page.host.endswith(want.host[1:]) and page.host != want.host[2:]
    return page.host == want.host
