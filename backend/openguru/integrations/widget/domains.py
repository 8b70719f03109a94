"""Does an embedding page's origin match a widget's allowed domain pattern?

Patterns: "" (any), "docs.example.com", "https://docs.example.com", "*.example.com" (sub-domains
only), "http://localhost:*" (any port).
"""

from urllib.parse import urlsplit


def _split(value: str) -> tuple[str, str, str]:
    parts = urlsplit(value if "://" in value else f"//{value}")
    host = (parts.hostname or "").lower()
    port = "*" if parts.netloc.endswith(":*") else str(parts.port or "")
    return parts.scheme.lower(), host, port


def origin_allowed(*, pattern: str, origin: str) -> bool:
    if not pattern.strip():
        return True
    want_scheme, want_host, want_port = _split(pattern.strip())
    scheme, host, port = _split(origin.strip())
    if not host or (want_scheme and scheme != want_scheme):
        return False
    if want_port and want_port != "*" and port != want_port:
        return False
    if want_host.startswith("*."):
        return host.endswith(want_host[1:]) and host != want_host[2:]
    return host == want_host
