"""WebsiteLoader against the small docs site served on a loopback port: a single page, a crawl
and a sitemap."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.loaders.base import LoadRequest
from openguru.sources.loaders.website import WebsiteLoader

from tests.fakes.docs_site import DocsSite, copy_small_docs
from tests.sources.website_helpers import ALL_PAGES, edit_page, load


@pytest.fixture
def site(tmp_path: Path) -> Iterator[DocsSite]:
    with DocsSite(copy_small_docs(tmp_path)) as served:
        yield served


# --- Single page ----------------------------------------------------------------------------------


def test_single_page_keeps_heading_ids_and_strips_chrome(
    site: DocsSite,
) -> None:
    url = site.url_for("intro.html")
    loaded = load(url, "single")
    [document] = loaded.documents
    assert document.link == url
    assert document.format == "html"
    assert document.title == "Introduction — Acme 2.0 documentation"
    html = document.text
    assert '<section id="getting-started">' in html
    assert '<span id="start"></span><h2>Getting started</h2>' in html
    assert '<section id="installation">' in html and "<h3>Installation</h3>" in html
    assert "pip install acme-rockets" in html
    assert 'class="highlight-shell notranslate"' in html  # the code's language survives
    assert 'href="' + site.url_for("api.html#acme.Rocket") + '"' in html
    for chrome in (
        "¶",
        "headerlink",
        "Table of Contents",
        "Copyright",
        "trackPageView",
        ">next<",
    ):
        assert chrome not in html
    assert loaded.result.fetch_state[url]["hash"]
    assert loaded.last_progress.fetched == 1


def test_article_header_keeps_its_heading_while_site_chrome_goes(
    site: DocsSite,
) -> None:
    [document] = load(site.url_for("api.html"), "single").documents
    html = document.text
    assert '<h1 id="api-reference">API reference</h1>' in html
    assert '<dt id="acme.Rocket">' in html and '<dt id="acme.Rocket.launch">' in html
    assert '<section id="module-acme">' in html
    for chrome in (
        "Made with Furo",
        "Home",
        "toc-drawer",
        "Previous: Advanced",
        "font-family",
    ):
        assert chrome not in html


def test_page_without_a_main_element_falls_back_to_the_body(
    site: DocsSite,
) -> None:
    [document] = load(site.url_for("faq.html"), "single").documents
    html = document.text
    assert '<h1 id="faq">Frequently asked questions</h1>' in html
    assert '<h2 id="does-it-work-at-night">' in html
    for chrome in ("Subscribe", "Newsletter", "All rights reserved", "API</a>"):
        assert chrome not in html


def test_single_page_that_is_not_html_fails(site: DocsSite) -> None:
    with pytest.raises(DomainError) as caught:
        load(site.url_for("notes.txt"), "single")
    assert caught.value.code == ErrorCode.INVALID_FILE


# --- Crawl ----------------------------------------------------------------------------------------


def test_crawl_finds_every_allowed_page_once(site: DocsSite) -> None:
    loaded = load(site.url + "/")
    assert loaded.paths(site) == ALL_PAGES
    requested = site.requested_paths()
    assert "/private/internal.html" not in requested  # robots.txt: Disallow: /private/
    assert "/downloads/acme.pdf" not in requested  # never a page
    assert "/index.html" not in requested  # the same page as "/"
    assert requested.count("/intro.html") == 1  # "intro.html#getting-started" is intro.html
    assert "/notes.txt" in requested  # fetched, found not to be HTML, skipped
    assert all(d.format == "html" and d.text for d in loaded.documents)
    progress = loaded.last_progress
    assert (progress.discovered, progress.fetched, progress.failed) == (8, 7, 0)


def test_documents_are_fetched_lazily(site: DocsSite) -> None:
    request = LoadRequest(source_id=1, url=site.url + "/", crawl_mode="crawl")
    result = WebsiteLoader().load(request, on_progress=lambda _: None)
    # load() fetched what can fail the whole source; the rest waits for the consumer.
    assert site.requested_paths() == ["/robots.txt", "/"]
    first = next(result.documents)
    assert first.link == site.url + "/"
    assert len(list(result.documents)) == len(ALL_PAGES) - 1


def test_crawl_respects_max_depth(site: DocsSite) -> None:
    shallow = load(site.url + "/", max_depth=1)
    assert shallow.paths(site) == {
        "/",
        "/intro.html",
        "/tutorial/index.html",
        "/api.html",
        "/faq.html",
    }
    site.reset_log()
    assert load(site.url + "/", max_depth=0).paths(site) == {"/"}


def test_crawl_respects_max_pages_in_breadth_first_link_order(
    site: DocsSite,
) -> None:
    loaded = load(site.url + "/", max_pages=3)
    assert loaded.paths(site) == {"/", "/intro.html", "/tutorial/index.html"}
    assert "/api.html" not in site.requested_paths()


def test_crawl_stays_under_the_start_directory(site: DocsSite) -> None:
    # "/tutorial" redirects to "/tutorial/": the scope comes from where the crawl landed.
    loaded = load(site.url_for("tutorial"))
    assert loaded.paths(site) == {
        "/tutorial/",
        "/tutorial/first-steps.html",
        "/tutorial/advanced.html",
    }
    assert "/api.html" not in site.requested_paths()


def test_crawl_can_leave_the_start_directory(site: DocsSite) -> None:
    loaded = load(site.url_for("tutorial/"), stay_under_path=False)
    assert "/api.html" in loaded.paths(site)


def test_exclude_patterns(site: DocsSite) -> None:
    loaded = load(site.url + "/", exclude_patterns=["/tutorial/*"])
    assert loaded.paths(site) == {
        "/",
        "/intro.html",
        "/api.html",
        "/faq.html",
    }
    assert not any(p.startswith("/tutorial/") for p in site.requested_paths())


def test_include_glob_matches_at_any_depth(site: DocsSite) -> None:
    loaded = load(site.url + "/", include_patterns=["tutorial/*"])
    # The start page is read for its links but not indexed: it does not match.
    assert loaded.paths(site) == {
        "/tutorial/index.html",
        "/tutorial/first-steps.html",
        "/tutorial/advanced.html",
    }


def test_include_regex(site: DocsSite) -> None:
    loaded = load(site.url + "/", include_patterns=[r"^/(intro|api)\.html$"])
    assert loaded.paths(site) == {"/intro.html", "/api.html"}


def test_invalid_regex_is_a_user_error(site: DocsSite) -> None:
    with pytest.raises(DomainError) as caught:
        load(site.url + "/", include_patterns=["^/(unclosed"])
    assert caught.value.code == ErrorCode.INVALID_INPUT


def test_non_html_links_are_skipped_not_failed(site: DocsSite) -> None:
    site.add_page("/status", '{"ok": true}', content_type="application/json")
    edit_page(site, "index.html", 'href="notes.txt"', 'href="status"')
    loaded = load(site.url + "/")
    assert "/status" in site.requested_paths()
    assert loaded.paths(site) == ALL_PAGES
    assert loaded.last_progress.failed == 0


def test_a_failing_page_is_counted_and_the_crawl_goes_on(
    site: DocsSite,
) -> None:
    site.add_redirect("/internal", "http://169.254.169.254/latest/meta-data/")
    edit_page(site, "faq.html", 'href="api.html"', 'href="internal"')
    site.add_status("/api.html", 500)
    loaded = load(site.url + "/")
    assert loaded.paths(site) == ALL_PAGES - {"/api.html"}
    assert loaded.last_progress.failed == 2


def test_start_page_disallowed_by_robots_fails(site: DocsSite) -> None:
    with pytest.raises(DomainError) as caught:
        load(site.url_for("private/internal.html"))
    assert caught.value.code == ErrorCode.URL_NOT_ALLOWED
    assert "/private/internal.html" not in site.requested_paths()


# --- Sitemap --------------------------------------------------------------------------------------


def test_sitemap_found_through_robots_txt(site: DocsSite) -> None:
    loaded = load(site.url + "/", "sitemap")
    # index.html is listed (not "/"); private/ is disallowed; the other host is ignored.
    assert loaded.paths(site) == (ALL_PAGES - {"/"}) | {"/index.html"}
    assert "/private/internal.html" not in site.requested_paths()
    assert "/sitemap.xml" in site.requested_paths()


def test_sitemap_index_with_a_gzipped_child(site: DocsSite) -> None:
    loaded = load(site.url_for("sitemap_index.xml"), "sitemap")
    assert loaded.paths(site) == {
        "/intro.html",
        "/tutorial/index.html",
        "/tutorial/first-steps.html",
        "/tutorial/advanced.html",
        "/api.html",
        "/faq.html",
    }
    assert "/sitemaps/reference.xml.gz" in site.requested_paths()


def test_sitemap_respects_max_pages_and_patterns(site: DocsSite) -> None:
    loaded = load(
        site.url_for("sitemap.xml"),
        "sitemap",
        max_pages=2,
        exclude_patterns=["/index.html"],
    )
    assert loaded.paths(site) == {"/intro.html", "/tutorial/index.html"}


def test_missing_sitemap_fails(site: DocsSite) -> None:
    with pytest.raises(DomainError) as caught:
        load(site.url_for("no-such-sitemap.xml"), "sitemap")
    assert caught.value.code == ErrorCode.FETCH_FAILED
