"""The SSRF guard against every spelling of a forbidden address.

An address is spelled the ways the C library reads it (dotted with decimal, octal or hex parts,
the 3-, 2- and 1-part short forms, IPv6 with embedded IPv4, zone ids, upper case) inside URLs
with userinfo, ports, fragments and odd scheme case; names come from a resolver table (see
fake_dns), IDNA and trailing dots included. Nothing non-public may pass `check_url`, the source
validation, or reach a loopback server through `safe_fetch`; public addresses, however spelled,
still pass (else refusing everything would satisfy the rest).
"""

import ipaddress
from collections.abc import Iterator

import httpx
import pytest
from django.test import override_settings
from hypothesis import given
from hypothesis import strategies as st
from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.loaders.ssrf import check_url, guarded_client, safe_fetch
from openguru.sources.validation import validate_source_input

from tests.fakes.docs_site import DocsSite, copy_small_docs
from tests.fuzz.fake_dns import fake_dns
from tests.fuzz.strategies import FUZZ

STRICT = override_settings(CRAWLER_ALLOW_LOOPBACK=False, CRAWLER_ALLOW_PRIVATE=False)
# What must never be reached, as the standards name it (independent of the guard's own list).
NON_PUBLIC_V4 = [
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
    "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15",
    "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
]  # fmt: skip
NON_PUBLIC_V6 = ["::1/128", "::/128", "fe80::/10", "fc00::/7", "ff00::/8", "2001:db8::/32"]
PUBLIC_V4 = [("1.0.0.0", "9.255.255.255"), ("11.0.0.0", "99.255.255.255")]
PUBLIC_V6 = ["2606:4700:4700::1111", "2a00:1450:4001:80b::200e"]
# The resolver's table: names an attacker controls, pointing where they like.
DNS = {
    "intranet.test": ["10.1.2.3"],
    "metadata.test": ["169.254.169.254"],
    "mixed.test": ["93.184.216.34", "127.0.0.1"],  # one bad answer is enough
    "v6.test": ["::1"],
    "mapped.test": ["::ffff:192.168.0.9"],
    "localhost": ["127.0.0.1", "::1"],
    "xn--bcher-kva.test": ["127.0.0.1"],  # bücher.test
    # faß.test: IDNA 2008 (what the HTTP client connects to) keeps the ß, IDNA 2003 maps it to
    # "ss". Each spelling points elsewhere: the guard must judge the name that is connected to.
    "xn--fa-hia.test": ["10.0.0.7"],
    "fass.test": ["93.184.216.34"],
    "public.test": ["93.184.216.34"],
}
FORBIDDEN_NAMES = [
    "intranet.test", "metadata.test", "mixed.test", "v6.test", "mapped.test", "localhost",
    "bücher.test", "BÜCHER.TEST", "xn--bcher-kva.test", "faß.test", "FAß.test",
]  # fmt: skip


# --- spellings ------------------------------------------------------------------------------------


def _number(value: int, style: str, pad: int) -> str:
    if style == "oct":
        return "0" + "0" * pad + format(value, "o")
    if style in ("hex", "HEX"):
        digits = "0" * pad + format(value, "x" if style == "hex" else "X")
        return ("0x" if style == "hex" else "0X") + digits
    return str(value)


@st.composite
def ipv4_spelling(draw: st.DrawFn, value: int) -> str:
    """`value` (a 32-bit address) as inet_aton reads it: 1 to 4 parts, the last one taking the
    remaining bytes, each part decimal, octal (leading 0) or hex (0x)."""
    parts = draw(st.integers(min_value=1, max_value=4))
    octets = value.to_bytes(4, "big")
    numbers = [*octets[: parts - 1], int.from_bytes(octets[parts - 1 :], "big")]
    styles = st.sampled_from(["dec", "dec", "oct", "hex", "HEX"])
    pads = st.integers(min_value=0, max_value=3)
    return ".".join(_number(n, draw(styles), draw(pads)) for n in numbers)


@st.composite
def ipv6_spelling(draw: st.DrawFn, address: ipaddress.IPv6Address) -> str:
    value, v4_prefixes = int(address), {0xFFFF: "::ffff:", 0x64FF9B << 64: "64:ff9b::", 0: "::"}
    form = draw(st.sampled_from(["compressed", "exploded", "upper", "v4-tail"]))
    if form == "v4-tail" and value >> 32 in v4_prefixes:
        text = v4_prefixes[value >> 32] + str(ipaddress.IPv4Address(value & 0xFFFFFFFF))
    elif form == "exploded":
        text = address.exploded
    elif form == "upper":
        text = address.compressed.upper()
    else:
        text = address.compressed
    if address.is_link_local:
        text += draw(st.sampled_from(["", "%25eth0", "%251", "%25lo"]))
    return f"[{text}]"


def _in(network: str, offset: int) -> int:
    net = ipaddress.ip_network(network)
    return int(net.network_address) + offset % net.num_addresses


def _embedded(v4: int, prefix: int) -> int:
    return prefix | max(v4, 2)  # ::0 and ::1 are not IPv4-compatible addresses


def _six_to_four(v4: int) -> int:
    return (0x2002 << 112) | (v4 << 80)


NON_PUBLIC_V4_VALUES = st.builds(_in, st.sampled_from(NON_PUBLIC_V4), st.integers(0, 2**32))
V4_EMBEDDINGS = st.sampled_from([0xFFFF << 32, 0x64FF9B << 96, 0])  # mapped, NAT64, compatible
NON_PUBLIC_V6_VALUES = st.one_of(
    st.builds(_in, st.sampled_from(NON_PUBLIC_V6), st.integers(0, 2**128)),
    st.builds(_embedded, NON_PUBLIC_V4_VALUES, V4_EMBEDDINGS),
    st.builds(_six_to_four, NON_PUBLIC_V4_VALUES),
)


@st.composite
def url_around(draw: st.DrawFn, host: str) -> str:
    scheme = draw(st.sampled_from(["http", "https", "HTTP", "hTtPs"]))
    userinfo = draw(st.sampled_from(["", "a@", "user:pw@", "8.8.8.8@", "public.test:80@", "@"]))
    port = draw(st.sampled_from(["", ":80", ":443", ":8080", ":1"]))
    tail = draw(st.sampled_from(["/", "", "/latest/meta-data/", "?x=@8.8.8.8", "#@public.test"]))
    return f"{scheme}://{userinfo}{host}{port}{tail}"


@st.composite
def forbidden_url(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["v4", "v6", "name"]))
    if kind == "v4":
        host = draw(ipv4_spelling(draw(NON_PUBLIC_V4_VALUES)))
    elif kind == "v6":
        host = draw(ipv6_spelling(ipaddress.IPv6Address(draw(NON_PUBLIC_V6_VALUES))))
    else:
        host = draw(st.sampled_from(FORBIDDEN_NAMES)) + draw(st.sampled_from(["", "."]))
    return draw(url_around(host))


@st.composite
def public_url(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["v4", "v6", "name"]))
    if kind == "v4":
        low, high = draw(st.sampled_from(PUBLIC_V4))
        value = draw(st.integers(int(ipaddress.IPv4Address(low)), int(ipaddress.IPv4Address(high))))
        host = draw(ipv4_spelling(value))
    elif kind == "v6":
        host = draw(ipv6_spelling(ipaddress.IPv6Address(draw(st.sampled_from(PUBLIC_V6)))))
    else:
        host = draw(st.sampled_from(["public.test", "PUBLIC.test", "public.test."]))
    return draw(url_around(host))


# --- properties -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dns() -> Iterator[None]:
    with fake_dns(DNS), STRICT:
        yield


def _refusal(url: str) -> DomainError:
    with pytest.raises(DomainError) as caught:
        check_url(url)
    return caught.value


@FUZZ
@given(forbidden_url())
def test_no_spelling_of_a_non_public_address_passes_the_check(dns: None, url: str) -> None:
    assert _refusal(url).code in (ErrorCode.URL_NOT_ALLOWED, ErrorCode.INVALID_INPUT), url


@FUZZ
@given(forbidden_url())
def test_no_spelling_of_a_non_public_address_is_accepted_as_a_website(dns: None, url: str) -> None:
    with pytest.raises(DomainError) as caught:
        validate_source_input(type="website", url=url, content="", crawl_mode="single")
    assert caught.value.code in (ErrorCode.URL_NOT_ALLOWED, ErrorCode.INVALID_INPUT), url


@FUZZ
@given(public_url())
def test_public_addresses_pass_however_spelled(dns: None, url: str) -> None:
    check_url(url)  # resolves only: nothing is fetched


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DocsSite]:
    with DocsSite(copy_small_docs(tmp_path_factory.mktemp("site"))) as served:
        yield served


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    with guarded_client() as guarded:
        yield guarded


@FUZZ
@given(st.data())
def test_no_spelling_of_loopback_reaches_a_loopback_server(
    dns: None, site: DocsSite, client: httpx.Client, data: st.DataObject
) -> None:
    port = site.url.rsplit(":", 1)[1]
    loopback = data.draw(st.builds(_in, st.just("127.0.0.0/8"), st.integers(0, 2**24)))
    host = data.draw(
        st.one_of(
            ipv4_spelling(loopback),
            st.sampled_from(["[::1]", "[::ffff:127.0.0.1]", "[::FFFF:7F00:1]", "localhost"]),
            st.sampled_from(["LOCALHOST.", "[0:0:0:0:0:0:0:1]", "v6.test", "bücher.test"]),
        )
    )
    user = data.draw(st.sampled_from(["", "public.test@", "8.8.8.8:80@"]))
    site.reset_log()
    with pytest.raises(DomainError):
        safe_fetch(f"http://{user}{host}:{port}/intro.html", client=client)
    assert site.requests == []


@pytest.mark.parametrize(
    "url",
    [
        "http://faß.test/",  # the guard judged fass.test, the client connects to xn--fa-hia.test
        "http://[fe80::1%25eth0]/",  # a link-local literal with a zone id did not resolve
        "http://[fe80::a9fe:a9fe%251]/latest/meta-data/",
    ],
)
def test_known_escapes_are_refused_as_not_allowed(dns: None, url: str) -> None:
    assert _refusal(url).code == ErrorCode.URL_NOT_ALLOWED
