"""Fetch user-supplied URLs without letting them reach the server's own network (SSRF guard).

A source URL is chosen by whoever may add sources, so it must not be able to make the worker
talk to the cloud metadata endpoint, the database, or anything else on a private network. Three
layers, each sufficient against a different trick:

1. `check_url` before any request and again for every redirect hop (redirects are followed by
   hand): only http/https, and every address the host resolves to must be allowed.
2. The transport resolves the host itself at connect time, checks the addresses, and connects to
   the checked IP: a DNS answer that changes between check and connect (rebinding) cannot
   redirect the socket, and nothing is ever sent to a refused address.
3. The peer address of the connected socket is checked once more before the body is read.

Loopback and private ranges can be allowed by settings (a developer's local docs, an intranet);
link-local (169.254.169.254), multicast, reserved and unspecified addresses never are.
"""

import ipaddress
import socket
import time
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import httpcore
import httpx
from django.conf import settings

from openguru.core.errors import DomainError, ErrorCode, TransientError

MAX_REDIRECTS = 5
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# A server that trickles bytes must not hold a worker forever: the whole fetch, redirects and
# body included, gets this many times the per-operation timeout.
TOTAL_TIME_FACTOR = 3
# Headers that must not follow a redirect to another origin.
_CREDENTIAL_HEADERS = frozenset({"authorization", "cookie", "proxy-authorization"})

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(cidr)
    for cidr in (
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "100.64.0.0/10",  # carrier-grade NAT: private to the provider, often the pod network
        "fc00::/7",  # unique local
        "fec0::/10",  # site-local (deprecated, still routed by some stacks)
    )
)
# Special-purpose ranges that some Python versions' tables call global (3.11 before 3.11.10
# knows only 192.0.0.0/29 and 192.0.0.170/31 of the IETF protocol assignments).
_RESERVED_NETWORKS = (ipaddress.ip_network("192.0.0.0/24"),)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


# --- Address policy -------------------------------------------------------------------------------


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for, when the kernel would route it as IPv4."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip in _NAT64 or (ip in _IPV4_COMPATIBLE and int(ip) > 1):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def address_category(ip: IPAddress) -> str | None:
    """Why an address is special ("loopback", "private", "link-local"...), None if public."""
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(ip)
        if embedded is not None:
            return address_category(embedded)
        if ip.sixtofour is not None and address_category(ip.sixtofour) is not None:
            return "reserved"  # a 6to4 address tunnelling to a non-public IPv4 address
    if ip.is_unspecified:
        return "unspecified"
    if ip.is_loopback:
        return "loopback"
    if ip.is_link_local:
        return "link-local"
    if ip.is_multicast:
        return "multicast"
    if any(ip in network for network in _PRIVATE_NETWORKS):
        return "private"
    if ip.is_reserved or not ip.is_global or any(ip in net for net in _RESERVED_NETWORKS):
        return "reserved"  # documentation, benchmarking, "this network", broadcast...
    return None


def ip_allowed(ip: IPAddress) -> bool:
    category = address_category(ip)
    if category is None:
        return True
    if category == "loopback":
        return bool(settings.CRAWLER_ALLOW_LOOPBACK)
    if category == "private":
        return bool(settings.CRAWLER_ALLOW_PRIVATE)
    return False


def _parse_ip(text: str) -> IPAddress:
    return ipaddress.ip_address(text.split("%", 1)[0])  # drop an IPv6 zone id ("fe80::1%eth0")


def _refuse(host: str, ip: IPAddress) -> DomainError:
    category = address_category(ip) or "public"
    return DomainError(
        ErrorCode.URL_NOT_ALLOWED,
        f"{host} points to a {category} address ({ip}), which sources may not reach.",
    )


def _ip_literal(host: str) -> IPAddress | None:
    try:
        return _parse_ip(host)
    except ValueError:
        return None  # a name, or one of the IPv4 short forms only the C library reads


def resolve_allowed(host: str, port: int) -> list[str]:
    """Resolve `host`; refuse it if ANY of its addresses is not allowed; return the addresses."""
    literal = _ip_literal(host)
    if literal is not None and not ip_allowed(literal):
        # Before resolving: a literal the resolver cannot read ("fe80::1%25eth0", the zone id
        # still URL-encoded) must be refused as what it names, not pass as "not found yet".
        raise _refuse(host, literal)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise DomainError(ErrorCode.FETCH_FAILED, f"The host {host} could not be found.") from exc
    addresses: list[str] = []
    for info in infos:
        address = str(info[4][0])
        ip = _parse_ip(address)
        if not ip_allowed(ip):
            raise _refuse(host, ip)
        if address not in addresses:
            addresses.append(address)
    return addresses


def _parse_url(url: str) -> httpx.URL:
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError) as exc:
        raise DomainError(ErrorCode.INVALID_INPUT, f"{url!r} is not a valid URL.") from exc
    if parsed.scheme not in ("http", "https"):
        raise DomainError(ErrorCode.URL_NOT_ALLOWED, "Only http and https URLs can be fetched.")
    if not parsed.host:
        raise DomainError(ErrorCode.INVALID_INPUT, f"{url!r} has no host name.")
    return parsed


def check_url(url: str) -> None:
    """Raise DomainError(URL_NOT_ALLOWED) unless `url` is http(s) to allowed addresses only."""
    parsed = _parse_url(url)
    # The name the client connects to: `host` is for display and decodes IDNA, which the socket
    # module would encode again by the older IDNA 2003 rules ("faß" -> "fass", not "xn--fa-hia").
    host = parsed.raw_host.decode("ascii")
    resolve_allowed(host, parsed.port or (443 if parsed.scheme == "https" else 80))


# --- Transport that checks at connect time --------------------------------------------------------


class _GuardedBackend(httpcore.SyncBackend):
    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        last_error: Exception | None = None
        # Connect to the addresses just checked, never to a second (possibly different) lookup.
        for address in resolve_allowed(host, port):
            try:
                return super().connect_tcp(address, port, timeout, local_address, socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last_error = exc
        raise last_error or httpcore.ConnectError(f"no address for {host}")


class _GuardedTransport(httpx.HTTPTransport):
    def __init__(self, *, max_connections: int) -> None:
        super().__init__(trust_env=False)
        # httpx has no public hook on the connect step; this pool differs from the default only
        # by its network backend. Environment proxies are ignored on purpose: through a proxy
        # the guard would check the proxy's address instead of the target's.
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(),
            max_connections=max_connections,
            max_keepalive_connections=max_connections,
            keepalive_expiry=5.0,  # httpx's default
            network_backend=_GuardedBackend(),
        )


def guarded_client(*, max_connections: int = 10) -> httpx.Client:
    """An httpx client whose every connection goes through the guard. Redirects stay off:
    `safe_fetch` follows them itself so each hop is checked."""
    return httpx.Client(
        transport=_GuardedTransport(max_connections=max_connections),
        follow_redirects=False,
        trust_env=False,
        headers={"User-Agent": settings.CRAWLER_USER_AGENT},
    )


# --- Fetching -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FetchResult:
    status: int  # 200..299, or 304 when the conditional headers matched
    url: str  # the final URL, after redirects
    headers: httpx.Headers
    body: bytes

    @property
    def not_modified(self) -> bool:
        return self.status == HTTPStatus.NOT_MODIFIED

    @property
    def media_type(self) -> str:
        return self.headers.get("content-type", "").split(";", 1)[0].strip().lower()

    @property
    def charset(self) -> str | None:
        for param in self.headers.get("content-type", "").split(";")[1:]:
            name, _, value = param.partition("=")
            if name.strip().lower() == "charset" and value.strip():
                return value.strip().strip("\"'")
        return None


def _human_size(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.0f} MB"
    return f"{max(size // 1024, 1)} KB"


def _too_large(url: str, max_bytes: int) -> DomainError:
    return DomainError(
        ErrorCode.FILE_TOO_LARGE, f"{url} is larger than the {_human_size(max_bytes)} limit."
    )


def http_status_error(url: str, status: int) -> DomainError:
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    if status == HTTPStatus.TOO_MANY_REQUESTS or status >= 500:
        return TransientError(ErrorCode.FETCH_FAILED, f"{url} returned {status} {phrase}.")
    if status in (HTTPStatus.NOT_FOUND, HTTPStatus.GONE):
        return DomainError(ErrorCode.FETCH_FAILED, f"The page returned {status} {phrase}: {url}")
    return DomainError(ErrorCode.FETCH_FAILED, f"{url} returned {status} {phrase}.")


def _check_peer(response: httpx.Response, url: str) -> None:
    stream = response.extensions.get("network_stream")
    peer = stream.get_extra_info("server_addr") if stream is not None else None
    if peer:
        ip = _parse_ip(str(peer[0]))
        if not ip_allowed(ip):
            raise _refuse(httpx.URL(url).host, ip)


def _read_capped(response: httpx.Response, url: str, max_bytes: int, deadline: float) -> bytes:
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise _too_large(url, max_bytes)
    body = bytearray()
    for chunk in response.iter_bytes():  # decoded bytes: a gzip bomb hits the cap too
        body.extend(chunk)
        if len(body) > max_bytes:
            raise _too_large(url, max_bytes)
        if time.monotonic() > deadline:
            raise TransientError(ErrorCode.FETCH_FAILED, f"{url} took too long to download.")
    return bytes(body)


def _next_hop_headers(headers: dict[str, str], old: str, new: str) -> dict[str, str]:
    old_url, new_url = httpx.URL(old), httpx.URL(new)
    if (old_url.scheme, old_url.host, old_url.port) == (new_url.scheme, new_url.host, new_url.port):
        return headers
    return {k: v for k, v in headers.items() if k.lower() not in _CREDENTIAL_HEADERS}


def _accepted(media_type: str, accept_types: Collection[str] | None) -> bool:
    # A missing Content-Type is given the benefit of the doubt; parsers cope with junk.
    return accept_types is None or not media_type or media_type in accept_types


def safe_fetch(
    url: str,
    *,
    headers: Mapping[str, str] | None = None,
    max_bytes: int | None = None,
    timeout: float | None = None,
    accept_types: Collection[str] | None = None,
    client: httpx.Client | None = None,
) -> FetchResult:
    """GET `url` through the guard, following up to MAX_REDIRECTS redirects (each one checked).

    Raises DomainError: URL_NOT_ALLOWED (guard), FILE_TOO_LARGE (over `max_bytes`),
    FETCH_FAILED (404/410/other 4xx, unknown host, too many redirects), INVALID_FILE (content
    type not in `accept_types`); TransientError on timeouts, connection errors, 429 and 5xx.
    A 304 answer to conditional headers comes back as a result with `not_modified` and no body.
    """
    max_bytes = max_bytes or settings.CRAWLER_PAGE_MAX_BYTES
    timeout = timeout or settings.CRAWLER_TIMEOUT_SECONDS
    own_client = client is None
    http = client or guarded_client()
    try:
        return _fetch_following_redirects(
            http,
            url,
            headers=dict(headers or {}),
            max_bytes=max_bytes,
            timeout=timeout,
            accept_types=accept_types,
        )
    finally:
        if own_client:
            http.close()


def _fetch_following_redirects(
    http: httpx.Client,
    url: str,
    *,
    headers: dict[str, str],
    max_bytes: int,
    timeout: float,
    accept_types: Collection[str] | None,
) -> FetchResult:
    deadline = time.monotonic() + timeout * TOTAL_TIME_FACTOR
    for _hop in range(MAX_REDIRECTS + 1):
        check_url(url)
        try:
            with http.stream("GET", url, headers=headers, timeout=timeout) as response:
                _check_peer(response, url)
                location = response.headers.get("location")
                if response.status_code in REDIRECT_STATUSES and location:
                    next_url = str(response.url.join(location).copy_with(fragment=None))
                    headers = _next_hop_headers(headers, url, next_url)
                    url = next_url
                    continue
                return _result(response, url, max_bytes, deadline, accept_types)
        except httpx.TimeoutException as exc:
            raise TransientError(ErrorCode.FETCH_FAILED, f"{url} timed out.") from exc
        except httpx.DecodingError as exc:
            raise DomainError(ErrorCode.FETCH_FAILED, f"{url} sent a corrupt body.") from exc
        except httpx.TransportError as exc:
            raise TransientError(ErrorCode.FETCH_FAILED, f"Could not download {url}.") from exc
    raise DomainError(ErrorCode.FETCH_FAILED, f"{url} redirects more than {MAX_REDIRECTS} times.")


def _result(
    response: httpx.Response,
    url: str,
    max_bytes: int,
    deadline: float,
    accept_types: Collection[str] | None,
) -> FetchResult:
    status = response.status_code
    if status == HTTPStatus.NOT_MODIFIED:
        return FetchResult(status=status, url=url, headers=response.headers, body=b"")
    if not 200 <= status < 300:
        raise http_status_error(url, status)
    result = FetchResult(status=status, url=url, headers=response.headers, body=b"")
    if not _accepted(result.media_type, accept_types):
        raise DomainError(
            ErrorCode.INVALID_FILE, f"{url} is not a web page (it is {result.media_type})."
        )
    body = _read_capped(response, url, max_bytes, deadline)
    return FetchResult(status=status, url=url, headers=response.headers, body=body)
