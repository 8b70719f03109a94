"""A guru's icon: uploaded by an admin (PNG, JPEG, GIF or WebP, by content), served to anyone
at the URL its icon_url now holds."""

from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.console.conftest import make_guru

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00" * 40


def _upload(client: APIClient, name: str, content: bytes, content_type: str = "image/png"):
    upload = SimpleUploadedFile(name, content, content_type=content_type)
    return client.post("/api/gurus/python/icon/", {"file": upload}, format="multipart")


def test_upload_then_anyone_fetches_it(admin_api, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    make_guru()
    response = _upload(admin_api, "logo.png", PNG)
    assert response.status_code == 200, response.content
    icon_url = response.json()["icon_url"]
    assert icon_url.startswith("http://testserver/api/gurus/python/icon/?v=")
    assert admin_api.get("/api/gurus/python/").json()["icon_url"] == icon_url

    fetched = APIClient().get(icon_url.removeprefix("http://testserver"))
    assert fetched.status_code == 200
    assert fetched["Content-Type"] == "image/png"
    assert b"".join(fetched.streaming_content) == PNG

    gif = b"GIF89a" + b"\x00" * 20
    assert _upload(admin_api, "logo.gif", gif, "image/gif").json()["icon_url"] != icon_url
    again = APIClient().get("/api/gurus/python/icon/")
    assert again["Content-Type"] == "image/gif"  # the PNG is gone
    assert b"".join(again.streaming_content) == gif


def test_only_images_by_content_and_small_ones(admin_api, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    make_guru()
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    refused = _upload(admin_api, "logo.png", svg)  # a name and type that lie
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid_file"
    large = _upload(admin_api, "big.png", PNG + b"\x00" * (1024 * 1024))
    assert large.status_code == 413
    assert APIClient().get("/api/gurus/python/icon/").status_code == 404
