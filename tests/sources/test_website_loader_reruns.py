"""WebsiteLoader against the small docs site on a loopback port: later runs (conditional
requests, changed, failing and vanished pages), start URLs it refuses, and canonical URLs."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.loaders.website_scope import canonical_url
from pytest_django import Settings

from tests.fakes.docs_site import DocsSite, copy_small_docs
from tests.sources.website_helpers import ALL_PAGES, edit_page, load


@pytest.fixture
def site(tmp_path: Path) -> Iterator[DocsSite]:
    with DocsSite(copy_small_docs(tmp_path)) as served:
        yield served


# --- Re-runs --------------------------------------------------------------------------------------


def test_second_run_sends_conditional_headers_and_finds_nothing_new(
    site: DocsSite,
) -> None:
    first = load(site.url + "/")
    state = first.result.fetch_state
    site.reset_log()

    second = load(site.url + "/", fetch_state=state)

    assert second.documents == []
    assert second.unchanged_paths(site) == ALL_PAGES
    for path in ALL_PAGES:
        [request] = site.requests_for(path)
        link = site.url + path
        assert request.header("If-None-Match") == state[link]["etag"]
        assert request.header("If-Modified-Since") == state[link]["last_modified"]
    # 304s have no body: the crawl went on through the links kept from the first run.
    assert second.result.fetch_state[site.url + "/"]["links"]
    assert second.last_progress.skipped_unchanged == len(ALL_PAGES)
    assert second.last_progress.fetched == 0


def test_only_the_changed_page_is_yielded(site: DocsSite) -> None:
    first = load(site.url + "/")
    edit_page(site, "intro.html", "a clear sky", "a clear sky and a launch pad")

    second = load(site.url + "/", fetch_state=first.result.fetch_state)

    [changed] = second.documents
    assert changed.link == site.url_for("intro.html")
    assert "a launch pad" in changed.text
    assert second.unchanged_paths(site) == ALL_PAGES - {"/intro.html"}
    old, new = (r.result.fetch_state[changed.link] for r in (first, second))
    assert old["hash"] != new["hash"] and old["etag"] != new["etag"]


def test_same_body_without_validators_counts_as_unchanged(
    site: DocsSite,
) -> None:
    page = (site.root / "intro.html").read_text()
    site.add_page("/plain.html", page)  # no ETag, no Last-Modified
    url = site.url_for("plain.html")
    first = load(url, "single")
    second = load(url, "single", fetch_state=first.result.fetch_state)
    assert len(first.documents) == 1
    assert second.documents == []
    assert second.result.unchanged_links == {url}
    assert site.requests_for("/plain.html")[-1].header("If-None-Match") is None


# --- Failures of the start URL --------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["single", "crawl"])
def test_404_start_url_fails_the_load(site: DocsSite, mode: str) -> None:
    with pytest.raises(DomainError) as caught:
        load(site.url_for("missing.html"), mode)
    assert caught.value.code == ErrorCode.FETCH_FAILED
    assert "404 Not Found" in caught.value.msg


@pytest.mark.parametrize(
    "url",
    [
        "http://10.0.0.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[fd00::1]/",
    ],
)
@pytest.mark.parametrize("mode", ["single", "crawl", "sitemap"])
def test_private_start_urls_are_refused(url: str, mode: str) -> None:
    with pytest.raises(DomainError) as caught:
        load(url, mode)
    assert caught.value.code == ErrorCode.URL_NOT_ALLOWED


def test_loopback_start_url_refused_unless_allowed(site: DocsSite, settings: Settings) -> None:
    settings.CRAWLER_ALLOW_LOOPBACK = False
    with pytest.raises(DomainError) as caught:
        load(site.url + "/")
    assert caught.value.code == ErrorCode.URL_NOT_ALLOWED
    assert site.requests == []  # not even robots.txt


@pytest.mark.parametrize("target", ["http://10.0.0.1/", "http://169.254.169.254/latest/"])
def test_redirect_to_a_private_address_is_refused(site: DocsSite, target: str) -> None:
    site.add_redirect("/go", target)
    with pytest.raises(DomainError) as caught:
        load(site.url_for("go"), "single")
    assert caught.value.code == ErrorCode.URL_NOT_ALLOWED


def test_oversize_start_page_fails(site: DocsSite, settings: Settings) -> None:
    settings.CRAWLER_PAGE_MAX_BYTES = 100_000
    site.add_huge("/huge.html", 1_000_000, declare_length=False)
    with pytest.raises(DomainError) as caught:
        load(site.url_for("huge.html"), "single")
    assert caught.value.code == ErrorCode.FILE_TOO_LARGE


# --- URLs -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        (
            "HTTP://Docs.Example.COM:80/a/b.html#frag",
            "http://docs.example.com/a/b.html",
        ),
        ("https://example.com:443", "https://example.com/"),
        ("https://example.com:8443/x?q=1#y", "https://example.com:8443/x?q=1"),
        ("http://[::1]:8000/p", "http://[::1]:8000/p"),
        ("mailto:someone@example.com", None),
        ("javascript:void(0)", None),
        ("http://example.com:99999/", None),
    ],
)
def test_canonical_url(href: str, expected: str | None) -> None:
    assert canonical_url(href) == expected


def test_a_transient_failure_keeps_last_runs_copy(site: DocsSite) -> None:
    first = load(site.url + "/")
    site.add_status("/api.html", 503)

    second = load(site.url + "/", fetch_state=first.result.fetch_state)

    link = site.url_for("api.html")
    assert link in second.result.unchanged_links  # its chunks stay searchable
    assert second.result.fetch_state[link]["hash"] == first.result.fetch_state[link]["hash"]
    assert second.last_progress.failed == 1


def test_a_page_gone_for_good_is_dropped(site: DocsSite) -> None:
    first = load(site.url + "/")
    site.add_status("/api.html", 404)

    second = load(site.url + "/", fetch_state=first.result.fetch_state)

    link = site.url_for("api.html")
    assert link not in second.result.unchanged_links
    assert link not in second.result.fetch_state
    assert second.last_progress.failed == 1


def test_a_link_redirecting_off_site_is_not_indexed(site: DocsSite) -> None:
    with DocsSite(site.root) as elsewhere:
        site.add_redirect("/partner.html", elsewhere.url_for("intro.html"))
        edit_page(site, "faq.html", 'href="api.html"', 'href="partner.html"')
        loaded = load(site.url + "/")
    assert not any(d.link.startswith(elsewhere.url) for d in loaded.documents)
    assert loaded.paths(site) == ALL_PAGES
