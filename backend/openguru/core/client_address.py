"""The one answer to "which client sent this request?", for every per-client limit: anonymous
ask quotas, ask rates, votes and sign-in throttling.

The peer's address, unless the peer is a trusted proxy (`TRUSTED_PROXIES`): then the client it
names. In X-Forwarded-For each proxy appends the address it was reached from, so the client is
the right-most address that is not itself a trusted proxy (what lies left of it is whatever the
client claimed); without that header, X-Real-IP (our nginx sets both). From any other peer the
headers are the client's own claim: believing them would let every request name a fresh
address and never be limited.
"""

import hashlib
import ipaddress
from collections.abc import Sequence
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def client_ip(request: HttpRequest) -> str:
    peer = str(request.META.get("REMOTE_ADDR") or "unknown")
    if not _is_trusted_proxy(peer):
        return peer
    forwarded = _forwarded_client(str(request.META.get("HTTP_X_FORWARDED_FOR") or ""))
    if forwarded:
        return forwarded
    claimed = str(request.META.get("HTTP_X_REAL_IP") or "").strip()
    return claimed or peer


def _forwarded_client(header: str) -> str:
    """The client an X-Forwarded-For chain names ("" for none): walking from the right past
    our own proxies, the first other address; the left-most when every hop is ours."""
    hops = [hop.strip() for hop in header.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted_proxy(hop):
            return hop
    return hops[0] if hops else ""


def trusted_proxy_networks(values: Sequence[str]) -> tuple[IPNetwork, ...]:
    """`TRUSTED_PROXIES` entries as networks; ValueError names a malformed one."""
    return tuple(ipaddress.ip_network(v.strip(), strict=False) for v in values if v.strip())


_networks = lru_cache(maxsize=4)(trusted_proxy_networks)  # parsed once per setting value


def _is_trusted_proxy(peer: str) -> bool:
    networks = _networks(tuple(settings.TRUSTED_PROXIES))
    if not networks:
        return False
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    # Node reports an IPv4 peer on a dual-stack socket as ::ffff:127.0.0.1.
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return any(address in network for network in networks)


def client_fingerprint(ip: str) -> str:
    """What limits count against instead of the address itself: a keyed SHA-256, so no raw
    address is ever stored (not even as a cache key in Redis)."""
    return hashlib.sha256(f"{ip}|{settings.SECRET_KEY}".encode()).hexdigest()[:32]
