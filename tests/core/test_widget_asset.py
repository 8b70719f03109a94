"""`/widget.js`: the built bundle, cacheable and loadable from any site, or a JSON 503."""

import os

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def bundle(tmp_path, settings):
    path = tmp_path / "widget.js"
    path.write_text("console.log('v1');")
    settings.WIDGET_JS_PATH = path
    return path


def test_serves_the_bundle_for_other_sites_with_a_short_cache(bundle):
    response = Client().get("/widget.js")
    assert response.status_code == 200
    assert response.content == b"console.log('v1');"
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cross-Origin-Resource-Policy"] == "cross-origin"
    assert response["Cache-Control"] == "public, max-age=300"
    assert response["ETag"].startswith('"') and len(response["ETag"]) > 10


def test_an_unchanged_bundle_revalidates_to_304_and_a_rebuilt_one_does_not(bundle):
    etag = Client().get("/widget.js")["ETag"]
    again = Client().get("/widget.js", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag

    bundle.write_text("console.log('version two');")
    stat = bundle.stat()
    os.utime(bundle, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    rebuilt = Client().get("/widget.js", headers={"If-None-Match": etag})
    assert rebuilt.status_code == 200
    assert rebuilt.content == b"console.log('version two');"
    assert rebuilt["ETag"] != etag


def test_head_works_and_writes_are_refused(bundle):
    assert Client().head("/widget.js").status_code == 200
    assert Client().post("/widget.js").status_code == 405


def test_an_unbuilt_widget_is_a_json_503_that_says_how_to_build_it(tmp_path, settings):
    settings.WIDGET_JS_PATH = tmp_path / "missing.js"
    response = Client().get("/widget.js")
    assert response.status_code == 503
    body = response.json()
    assert body["code"] == "not_configured"
    assert "make install" in body["msg"]
