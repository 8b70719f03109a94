"""The SSRF guard and `safe_fetch`, against a real loopback web server.

Private and link-local addresses only ever appear as literals refused before any connection:
these tests never send a packet anywhere but 127.0.0.1.
"""

import ipaddress
from collections.abc import Iterator
from pathlib import Path

import pytest
from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.sources.loaders.ssrf import (
    address_category,
    check_url,
    guarded_client,
    ip_allowed,
    safe_fetch,
)
from openguru.sources.loaders.website_html import HTML_TYPES
from pytest_django import Settings

from tests.fakes.docs_site import DocsSite, copy_small_docs

ALWAYS_REFUSED = [
    "169.254.169.254",  # cloud metadata
    "169.254.0.1",
    str(ipaddress.IPv4Address(0)),  # 0.0.0.0, which reaches the local host on Linux
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "192.0.2.10",  # documentation range
    "198.18.0.1",  # benchmarking range
    "::",
    "fe80::1",
    "ff02::1",
    "2001:db8::1",
    "::ffff:169.254.169.254",
    "64:ff9b::a9fe:a9fe",  # NAT64 form of 169.254.169.254
    "2002:a9fe:a9fe::1",  # 6to4 form of 169.254.169.254
]
PRIVATE = [
    "10.0.0.1",
    "172.16.5.4",
    "172.31.255.255",
    "192.168.1.1",
    "100.64.0.1",  # carrier-grade NAT
    "fc00::1",
    "fd12:3456::1",
    "fec0::1",  # site-local
    "::ffff:10.0.0.1",
    "::ffff:192.168.0.1",
]
LOOPBACK = ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]
PUBLIC = ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "64:ff9b::808:808"]


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    return ipaddress.ip_address(text)


@pytest.fixture
def strict(settings: Settings) -> Settings:
    settings.CRAWLER_ALLOW_LOOPBACK = False
    settings.CRAWLER_ALLOW_PRIVATE = False
    return settings


@pytest.fixture
def site(tmp_path: Path) -> Iterator[DocsSite]:
    with DocsSite(copy_small_docs(tmp_path)) as served:
        yield served


# --- Address policy -------------------------------------------------------------------------------


@pytest.mark.parametrize("address", ALWAYS_REFUSED + PRIVATE + LOOPBACK)
def test_non_public_addresses_are_refused_by_default(strict: Settings, address: str) -> None:
    assert address_category(_ip(address)) is not None
    assert not ip_allowed(_ip(address))


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_are_allowed(strict: Settings, address: str) -> None:
    assert address_category(_ip(address)) is None
    assert ip_allowed(_ip(address))


def test_allow_private_opens_private_ranges_only(strict: Settings) -> None:
    strict.CRAWLER_ALLOW_PRIVATE = True
    assert all(ip_allowed(_ip(a)) for a in PRIVATE)
    assert not any(ip_allowed(_ip(a)) for a in ALWAYS_REFUSED + LOOPBACK)


def test_allow_loopback_opens_loopback_only(strict: Settings) -> None:
    strict.CRAWLER_ALLOW_LOOPBACK = True
    assert all(ip_allowed(_ip(a)) for a in LOOPBACK)
    assert not any(ip_allowed(_ip(a)) for a in ALWAYS_REFUSED + PRIVATE)


@pytest.mark.parametrize(
    "url",
    [
        "http://10.0.0.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::ffff:169.254.169.254]/",
        "http://[fd00::1]:8080/",
        "http://167772161/",  # 10.0.0.1 written as one number
        "http://0x0a000001/",  # 10.0.0.1 in hex
        "http://0:9/",  # 0.0.0.0
        "http://127.0.0.1@10.0.0.1/",  # the host is 10.0.0.1, not the userinfo
        "http://localhost:9/",
        "http://127.0.0.1:9/",
    ],
)
def test_check_url_refuses_non_public_hosts(strict: Settings, url: str) -> None:
    with pytest.raises(DomainError) as caught:
        check_url(url)
    assert caught.value.code == ErrorCode.URL_NOT_ALLOWED


@pytest.mark.parametrize(
    "url",
    ["file:///etc/passwd", "ftp://example.com/x", "gopher://127.0.0.1:70/", "data:,hi"],
)
def test_only_http_and_https_are_fetched(url: str) -> None:
    with pytest.raises(DomainError) as caught:
        safe_fetch(url)
    assert caught.value.code == ErrorCode.URL_NOT_ALLOWED


def test_the_transport_itself_refuses_before_connecting(strict: Settings) -> None:
    # The second layer, without check_url in front: what a DNS answer that changed after the
    # check would meet. The refusal comes from resolution, before any socket exists.
    with guarded_client() as client, pytest.raises(DomainError) as caught:
        client.get("http://10.0.0.1/")
    assert caught.value.code == ErrorCode.URL_NOT_ALLOWED


# --- safe_fetch against a loopback site -----------------------------------------------------------


def test_loopback_refused_when_not_allowed_sends_nothing(strict: Settings, site: DocsSite) -> None:
    with pytest.raises(DomainError) as caught:
        safe_fetch(site.url_for("intro.html"))
    assert caught.value.code == ErrorCode.URL_NOT_ALLOWED
    assert site.requests == []


def test_fetch_returns_body_final_url_and_validators(site: DocsSite) -> None:
    site.add_redirect("/old.html", "/moved.html", status=301)
    site.add_redirect("/moved.html", "/intro.html#installation")
    result = safe_fetch(site.url_for("old.html"))
    assert result.status == 200
    assert result.url == site.url_for("intro.html")  # fragment dropped
    assert b'<section id="getting-started">' in result.body
    assert result.media_type == "text/html"
    assert result.charset == "utf-8"
    assert result.headers["etag"]
    assert result.headers["last-modified"]


def test_conditional_get_answers_304_without_body(site: DocsSite) -> None:
    first = safe_fetch(site.url_for("intro.html"))
    second = safe_fetch(
        site.url_for("intro.html"),
        headers={"If-None-Match": first.headers["etag"]},
    )
    assert second.not_modified
    assert second.body == b""
    assert site.requests_for("/intro.html")[-1].header("If-None-Match") == (first.headers["etag"])


@pytest.mark.parametrize(
    "target", ["http://10.0.0.1/", "http://169.254.169.254/latest/meta-data/iam/"]
)
def test_redirect_to_a_refused_address_is_not_followed(site: DocsSite, target: str) -> None:
    site.add_redirect("/go", target)
    with pytest.raises(DomainError) as caught:
        safe_fetch(site.url_for("go"))
    assert caught.value.code == ErrorCode.URL_NOT_ALLOWED
    assert site.requested_paths() == ["/go"]


def test_too_many_redirects_fail(site: DocsSite) -> None:
    for hop in range(7):
        site.add_redirect(f"/r{hop}", f"/r{hop + 1}")
    with pytest.raises(DomainError) as caught:
        safe_fetch(site.url_for("r0"))
    assert caught.value.code == ErrorCode.FETCH_FAILED
    assert len(site.requests) == 6  # the first request and five redirects


def test_credentials_do_not_follow_a_redirect_to_another_origin(
    site: DocsSite,
) -> None:
    with DocsSite(site.root) as other:
        site.add_redirect("/away", other.url_for("intro.html"))
        safe_fetch(
            site.url_for("away"),
            headers={"Authorization": "Bearer secret", "If-None-Match": '"x"'},
        )
        arrived = other.requests_for("/intro.html")[0]
    assert site.requests_for("/away")[0].header("Authorization") == "Bearer secret"
    assert arrived.header("Authorization") is None
    assert arrived.header("If-None-Match") == '"x"'


@pytest.mark.parametrize("status", [404, 410])
def test_missing_pages_fail_with_the_status(site: DocsSite, status: int) -> None:
    site.add_status("/missing.html", status)
    with pytest.raises(DomainError) as caught:
        safe_fetch(site.url_for("missing.html"))
    assert caught.value.code == ErrorCode.FETCH_FAILED
    assert not isinstance(caught.value, TransientError)
    assert f"returned {status}" in caught.value.msg


def test_404_message_names_the_status(site: DocsSite) -> None:
    with pytest.raises(DomainError) as caught:
        safe_fetch(site.url_for("nope.html"))
    assert "The page returned 404 Not Found" in caught.value.msg


@pytest.mark.parametrize("status", [500, 503, 429])
def test_server_errors_are_transient(site: DocsSite, status: int) -> None:
    site.add_status("/busy.html", status)
    with pytest.raises(TransientError):
        safe_fetch(site.url_for("busy.html"))


def test_timeouts_are_transient(site: DocsSite) -> None:
    site.add_slow("/slow.html", 3.0)
    with pytest.raises(TransientError) as caught:
        safe_fetch(site.url_for("slow.html"), timeout=0.2)
    assert "timed out" in caught.value.msg


@pytest.mark.parametrize("declare_length", [True, False])
def test_oversize_bodies_are_refused(site: DocsSite, declare_length: bool) -> None:
    site.add_huge("/huge.html", 2_000_000, declare_length=declare_length)
    with pytest.raises(DomainError) as caught:
        safe_fetch(site.url_for("huge.html"), max_bytes=200_000)
    assert caught.value.code == ErrorCode.FILE_TOO_LARGE


def test_a_body_at_the_cap_is_accepted(site: DocsSite) -> None:
    site.add_huge("/exact.html", 200_000, declare_length=False)
    result = safe_fetch(site.url_for("exact.html"), max_bytes=200_000)
    assert len(result.body) == 200_000


def test_unwanted_content_types_are_refused_before_download(
    site: DocsSite,
) -> None:
    with pytest.raises(DomainError) as caught:
        safe_fetch(site.url_for("notes.txt"), accept_types=HTML_TYPES)
    assert caught.value.code == ErrorCode.INVALID_FILE
    assert "text/plain" in caught.value.msg


def test_a_callers_client_stays_open(site: DocsSite) -> None:
    with guarded_client() as client:
        for page in ("intro.html", "api.html"):
            assert safe_fetch(site.url_for(page), client=client).status == 200
        assert not client.is_closed
