"""Which client an anonymous limit counts: the peer, or the client a trusted proxy names, in
X-Forwarded-For (the UI's Next.js server sets it when it forwards /api/; nginx appends to it)
or X-Real-IP (our nginx). An untrusted peer's headers are its own claim and are ignored."""

import pytest
from django.core.cache import cache
from django.test import RequestFactory
from openguru.core.client_address import client_ip

from tests.answers.test_answer_engine import IN_SCOPE

LOOPBACK = ["127.0.0.1/32", "::1/128"]  # what `make run` trusts: its own Next server


def ip_of(peer: str, **headers: str) -> str:
    return client_ip(RequestFactory().get("/", REMOTE_ADDR=peer, **headers))


def test_a_trusted_proxy_names_the_client_in_x_forwarded_for(settings):
    settings.TRUSTED_PROXIES = LOOPBACK
    assert ip_of("127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.7") == "203.0.113.7"
    assert ip_of("::1", HTTP_X_FORWARDED_FOR="2001:db8::7") == "2001:db8::7"
    # Node names an IPv4 peer of a dual-stack socket ::ffff:127.0.0.1.
    assert ip_of("::ffff:127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.7") == "203.0.113.7"


def test_what_the_client_wrote_into_x_forwarded_for_is_skipped(settings):
    """Proxies append: the left entries are the client's claim, the right-most not-ours is the
    address our proxy was reached from."""
    settings.TRUSTED_PROXIES = [*LOOPBACK, "10.0.0.0/8"]
    chain = "198.51.100.1, 203.0.113.7"
    assert ip_of("127.0.0.1", HTTP_X_FORWARDED_FOR=chain) == "203.0.113.7"
    # nginx (10.0.0.5) in front of Next (127.0.0.1): both ours, the client is before them.
    chain = "198.51.100.1, 203.0.113.7, 10.0.0.5"
    assert ip_of("127.0.0.1", HTTP_X_FORWARDED_FOR=chain) == "203.0.113.7"
    # Every hop ours (a browser on this machine): the first.
    assert ip_of("127.0.0.1", HTTP_X_FORWARDED_FOR="127.0.0.1, 10.0.0.5") == "127.0.0.1"


def test_x_forwarded_for_wins_over_x_real_ip_and_x_real_ip_still_works(settings):
    settings.TRUSTED_PROXIES = LOOPBACK
    # Next forwards whatever headers the browser sent; only X-Forwarded-For is extended by it.
    both = {"HTTP_X_FORWARDED_FOR": "203.0.113.7", "HTTP_X_REAL_IP": "198.51.100.1"}
    assert ip_of("127.0.0.1", **both) == "203.0.113.7"
    assert ip_of("127.0.0.1", HTTP_X_REAL_IP="198.51.100.1") == "198.51.100.1"
    assert ip_of("127.0.0.1", HTTP_X_FORWARDED_FOR=" , ") == "127.0.0.1"


def test_an_untrusted_peers_headers_are_ignored(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    headers = {"HTTP_X_FORWARDED_FOR": "203.0.113.7", "HTTP_X_REAL_IP": "198.51.100.1"}
    assert ip_of("127.0.0.1", **headers) == "127.0.0.1"
    settings.TRUSTED_PROXIES = []
    assert ip_of("10.0.0.5", **headers) == "10.0.0.5"


@pytest.fixture
def two_asks_per_hour(settings):
    settings.ANONYMOUS_ASKS_PER_HOUR = 2
    cache.clear()
    yield
    cache.clear()


def ask_status(client, forwarded_for: str) -> int:
    response = client.post(
        "/api/gurus/python/answer/",
        {"question": IN_SCOPE},
        format="json",
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )
    return response.status_code


def test_visitors_behind_the_ui_server_each_have_their_own_limit(
    anon_client, python_guru, settings, two_asks_per_hour
):
    """The test client connects from 127.0.0.1, as the UI's server does under `make run`."""
    settings.TRUSTED_PROXIES = LOOPBACK
    assert [ask_status(anon_client, "203.0.113.1") for _ in range(3)] == [200, 200, 429]
    assert ask_status(anon_client, "203.0.113.2") == 200
    # Behind a proxy that appends (nginx), a visitor's own claim is left of its address.
    assert ask_status(anon_client, "198.51.100.9, 203.0.113.1") == 429


def test_without_trusting_the_ui_server_every_visitor_shares_its_limit(
    anon_client, python_guru, settings, two_asks_per_hour
):
    settings.TRUSTED_PROXIES = []
    statuses = [ask_status(anon_client, f"203.0.113.{i}") for i in range(3)]
    assert statuses == [200, 200, 429]
