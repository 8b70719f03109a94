"""The nginx files on their own: the repository's main file with the rendered template passes
`nginx -t`, and the header rules cannot be undone by a location (see test_nginx_live.py for
the running proxy)."""

import re
from pathlib import Path

import pytest

from tests.deploy.nginx_server import NGINX, TEMPLATE, check_main_config, render

VALUES = {
    "OPENGURU_LISTEN": "127.0.0.1:8080",
    "OPENGURU_BACKEND": "127.0.0.1:8000",
    "OPENGURU_FRONTEND": "127.0.0.1:3000",
    "OPENGURU_STATIC_ROOT": "/srv/static/",
    "OPENGURU_MEDIA_ROOT": "/srv/media/",
}


@pytest.mark.skipif(not NGINX.exists(), reason="run backend/scripts/nginx_up.sh")
def test_the_main_file_and_the_rendered_template_pass_nginx_t(tmp_path: Path) -> None:
    checked = check_main_config(tmp_path, VALUES)
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr


def test_rendering_replaces_only_the_openguru_names() -> None:
    text = render(VALUES)
    for value in VALUES.values():
        assert value in text
    assert "$host" in text and "$uri" in text  # nginx's own variables stay


def test_headers_are_set_at_the_server_level_only() -> None:
    # A location with any add_header of its own drops every add_header it would inherit.
    text = TEMPLATE.read_text()
    first_location = text.index("\n    location ")
    assert text.count("add_header") == text[:first_location].count("add_header") >= 7
    assert not re.search(r"^\s*more_set_headers", text, re.M)


def location_block(text: str, head: str) -> str:
    found = re.search(rf"^    location {re.escape(head)} \{{\n(.*?)^    \}}", text, re.M | re.S)
    assert found, f"no `location {head}`"
    return found[1]


def test_mcp_and_admin_paths_are_matched_exactly() -> None:
    text = TEMPLATE.read_text()
    # /mcp and /mcp/... are the MCP server's (as backend/openguru/api_v1/mcp_server.py matches
    # them); a prefix `location /mcp` would also send the UI's /mcp-anything to the backend.
    assert not re.search(r"^\s*location /mcp \{", text, re.M)
    for head in ("= /mcp", "/mcp/"):
        block = location_block(text, head)
        assert "proxy_pass http://openguru_backend;" in block
        assert "proxy_buffering off;" in block and "proxy_read_timeout 600s;" in block
    assert location_block(text, "= /admin").strip() == "return 301 /admin/;"
