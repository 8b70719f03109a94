"""/api/v1/<guru>/crawl/…: page discovery against the small docs site on a loopback port.

Celery runs eagerly here, so `start` answers once the crawl is over; the stop test runs the
crawl in a thread instead, the way a worker would, and stops it through the API.
"""

import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connections
from django.utils import timezone
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import api_key_create
from openguru.sources.crawls import crawl_run
from openguru.sources.models import Crawl
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.fakes.docs_site import DocsSite, copy_small_docs
from tests.gurus.helpers import guru_make

BASE = "/api/v1/docs/crawl"
PAGES = {
    "/",
    "/intro.html",
    "/tutorial/index.html",
    "/tutorial/first-steps.html",
    "/tutorial/advanced.html",
    "/api.html",
    "/faq.html",
}


@pytest.fixture
def guru(transactional_db: None) -> Guru:
    return guru_make(slug="docs", name="Docs")


@pytest.fixture
def client(key_headers: dict[str, str], guru: Guru) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=key_headers["X-API-KEY"])
    return client


@pytest.fixture
def site(tmp_path: Path) -> Iterator[DocsSite]:
    with DocsSite(copy_small_docs(tmp_path)) as served:
        yield served


def start(client: APIClient, url: str, **body: Any) -> Any:
    return client.post(f"{BASE}/start/", {"url": url, **body}, format="json")


def paths(site: DocsSite, crawl: dict[str, Any]) -> set[str]:
    return {url.removeprefix(site.url) for url in crawl["discovered_urls"]}


def test_a_crawl_lists_the_sites_pages_and_indexes_nothing(
    client: APIClient, site: DocsSite, guru: Guru
) -> None:
    response = start(client, site.url + "/")

    assert response.status_code == 200, response.json()
    crawl = response.json()
    assert crawl["status"] == "COMPLETED", crawl
    assert paths(site, crawl) == PAGES  # not notes.txt (not a page), not the PDF
    assert crawl["url"] == site.url + "/"
    assert crawl["start_time"] and crawl["end_time"] and crawl["error"] == ""
    assert crawl["link_limit"] == 1000  # CRAWLER_MAX_PAGES
    assert "/private/internal.html" not in site.requested_paths()  # robots.txt disallows it
    assert not guru.sources.exists()

    status = client.get(f"{BASE}/{crawl['id']}/status/")
    assert status.status_code == 200
    assert status.json() == crawl

    stopped_late = client.post(f"{BASE}/{crawl['id']}/stop/")
    assert stopped_late.status_code == 200
    assert stopped_late.json()["status"] == "COMPLETED"  # a finished crawl stays as it ended


def test_the_link_limit_keeps_the_first_pages_breadth_first(
    client: APIClient, site: DocsSite
) -> None:
    crawl = start(client, site.url + "/", link_limit=3).json()

    assert crawl["link_limit"] == 3
    assert paths(site, crawl) == {"/", "/intro.html", "/tutorial/index.html"}
    assert "/api.html" not in site.requested_paths()


def test_a_link_limit_above_the_crawler_ceiling_is_capped(
    client: APIClient, site: DocsSite, settings: Settings
) -> None:
    settings.CRAWLER_MAX_PAGES = 2

    crawl = start(client, site.url + "/", link_limit=50).json()

    assert crawl["link_limit"] == 2
    assert paths(site, crawl) == {"/", "/intro.html"}


def test_pages_robots_txt_disallows_are_not_listed(client: APIClient, site: DocsSite) -> None:
    rules = "User-agent: *\nDisallow: /private/\nDisallow: /tutorial/\n"
    site.add_page("/robots.txt", rules, content_type="text/plain")

    crawl = start(client, site.url + "/").json()

    assert paths(site, crawl) == {"/", "/intro.html", "/api.html", "/faq.html"}
    assert not any(path.startswith("/tutorial/") for path in site.requested_paths())


def test_the_crawl_stays_below_the_start_directory(client: APIClient, site: DocsSite) -> None:
    crawl = start(client, site.url_for("tutorial/")).json()

    assert paths(site, crawl) == {
        "/tutorial/",
        "/tutorial/first-steps.html",
        "/tutorial/advanced.html",
    }


def test_a_start_page_that_cannot_be_read_fails_the_crawl(
    client: APIClient, site: DocsSite
) -> None:
    crawl = start(client, site.url_for("missing/")).json()

    assert crawl["status"] == "FAILED"
    assert "404" in crawl["error"]
    assert crawl["discovered_urls"] == []


def test_a_loopback_address_is_refused_unless_allowed(
    client: APIClient, site: DocsSite, settings: Settings
) -> None:
    settings.CRAWLER_ALLOW_LOOPBACK = False

    response = start(client, site.url + "/")

    assert response.status_code == 400
    assert response.json()["code"] == "url_not_allowed"
    assert response.json()["msg"]
    assert not Crawl.objects.exists()
    assert site.requested_paths() == []


def test_stop_ends_a_running_crawl_before_its_next_level(
    client: APIClient, site: DocsSite, guru: Guru
) -> None:
    for path in ("/intro.html", "/tutorial/index.html", "/api.html", "/faq.html"):
        site.add_slow(path, 2.0)
    crawl = Crawl.objects.create(guru=guru, url=site.url + "/", link_limit=100)
    worker = threading.Thread(target=_run_in_thread, args=(crawl.pk,))
    worker.start()
    try:
        _wait_for(lambda: "/intro.html" in site.requested_paths())

        response = client.post(f"{BASE}/{crawl.pk}/stop/")

        assert response.status_code == 200
        assert response.json()["status"] == "STOPPED"
        assert response.json()["end_time"]
    finally:
        worker.join(timeout=30)
    assert not worker.is_alive()
    crawl.refresh_from_db()
    assert crawl.status == Crawl.Status.STOPPED
    assert site.url + "/" in crawl.discovered_urls  # what it found before the stop is kept
    assert "/tutorial/first-steps.html" not in site.requested_paths()  # the next level


def _run_in_thread(crawl_id: int) -> None:
    try:
        crawl_run(crawl_id=crawl_id)
    finally:
        connections.close_all()


def _wait_for(condition: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_crawl_whose_worker_was_lost_is_reported_failed(client: APIClient, guru: Guru) -> None:
    crawl = Crawl.objects.create(guru=guru, url="https://example.org/", link_limit=5)
    Crawl.objects.filter(pk=crawl.pk).update(created_at=timezone.now() - timedelta(hours=3))

    reported = client.get(f"{BASE}/{crawl.pk}/status/").json()

    assert reported["status"] == "FAILED"
    assert reported["error"] and reported["end_time"]


def test_a_crawl_delivered_again_long_after_it_began_ends_instead_of_starting_over(
    guru: Guru, site: DocsSite
) -> None:
    # Its worker died mid-crawl, again and again: the broker keeps handing its message back.
    crawl = Crawl.objects.create(guru=guru, url=site.url_for("index.html"), link_limit=5)
    Crawl.objects.filter(pk=crawl.pk).update(created_at=timezone.now() - timedelta(hours=3))

    crawl_run(crawl_id=crawl.pk)

    ended = Crawl.objects.get(pk=crawl.pk)
    assert (ended.status, ended.discovered_urls) == ("FAILED", [])
    assert ended.error and ended.end_time
    assert site.requests == []  # nothing fetched


def test_an_unknown_crawl_is_a_json_404(client: APIClient, guru: Guru) -> None:
    other = guru_make(slug="other", name="Other")
    foreign = Crawl.objects.create(guru=other, url="https://example.org/", link_limit=5)

    for crawl_id in (999_999, foreign.pk):
        response = client.get(f"{BASE}/{crawl_id}/status/")
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
        assert client.post(f"{BASE}/{crawl_id}/stop/").status_code == 404


def test_a_key_is_required_and_only_staff_keys_start_or_stop(
    guru: Guru, site: DocsSite, django_user_model: Any
) -> None:
    anonymous = APIClient().post(f"{BASE}/start/", {"url": site.url}, format="json")
    assert anonymous.status_code == 401
    assert anonymous.json()["code"] == "not_authenticated"

    _, raw = api_key_create(user=django_user_model.objects.create_user("reader"), name="r")
    reader = APIClient()
    reader.credentials(HTTP_X_API_KEY=raw)
    refused = start(reader, site.url + "/")
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"
    assert site.requested_paths() == []


def test_the_console_crawls_with_its_signed_in_session(
    guru: Guru, site: DocsSite, django_user_model: Any
) -> None:
    console = APIClient(enforce_csrf_checks=True)
    console.force_login(django_user_model.objects.create_user("maintainer", is_staff=True))
    console.get("/api/auth/session/")  # sets the csrftoken cookie, as the console does first
    csrf = {"HTTP_X_CSRFTOKEN": console.cookies["csrftoken"].value}

    assert console.post(f"{BASE}/start/", {"url": site.url + "/"}, format="json").status_code == 403
    started = console.post(f"{BASE}/start/", {"url": site.url + "/"}, format="json", **csrf)
    assert started.status_code == 200, started.content
    status = console.get(f"{BASE}/{started.json()['id']}/status/")
    assert status.status_code == 200 and status.json()["url"] == site.url + "/"

    reader = APIClient()
    reader.force_login(django_user_model.objects.create_user("visitor"))
    assert reader.get(f"{BASE}/{started.json()['id']}/status/").status_code == 403
