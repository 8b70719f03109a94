"""The requests an attacker tries, as plain functions over HTTP, so one probe runs against the
ASGI app itself (`test_probes.py`) and through the UI's server in front of it
(`test_probes_through_ui.py`)."""

import hashlib
import hmac
import json
import re
import socket
from urllib.parse import urlsplit

import httpx

from tests.answers.test_answer_engine import IN_SCOPE

WRONG = "not the password"


def ask(base: str, *, headers: dict[str, str] | None = None) -> httpx.Response:
    url = f"{base}/api/gurus/python/answer/"
    return httpx.post(url, json={"question": IN_SCOPE}, headers=headers or {}, timeout=60)


def asks_with_made_up_addresses(base: str, count: int = 5) -> list[int]:
    """`count` questions, each naming a different client in X-Forwarded-For and X-Real-IP."""
    statuses = []
    for i in range(count):
        claim = f"198.51.100.{i + 1}"
        headers = {"X-Forwarded-For": claim, "X-Real-IP": claim}
        statuses.append(ask(base, headers=headers).status_code)
    return statuses


def admin_sign_in(base: str, username: str, password: str, client: httpx.Client) -> bool:
    """Signs in at /admin/login/ as a browser does (CSRF token from the form); True when the
    admin let the browser in."""
    form = client.get(f"{base}/admin/login/", params={"next": "/admin/"})
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text)
    assert token, form.text[:500]
    response = client.post(
        f"{base}/admin/login/?next=/admin/",
        data={"csrfmiddlewaretoken": token.group(1), "username": username, "password": password},
        headers={"Referer": f"{base}/admin/login/"},
    )
    return response.status_code == 302 and response.headers["location"] == "/admin/"


def console_sign_in(
    base: str, username: str, password: str, *, headers: dict[str, str] | None = None
) -> httpx.Response:
    """The console's JSON sign-in, with the CSRF cookie and header it needs."""
    with httpx.Client(timeout=60) as client:
        client.get(f"{base}/api/auth/session/")
        token = client.cookies["csrftoken"]
        return client.post(
            f"{base}/api/auth/login/",
            json={"username": username, "password": password},
            headers={"X-CSRFToken": token, **(headers or {})},
        )


def form_sign_in(base: str, username: str, password: str, *, origin: str | None) -> httpx.Response:
    """The sign-in form as a browser without JavaScript posts it."""
    headers = {"Origin": origin} if origin else {}
    data = {"username": username, "password": password, "next": "/console/keys"}
    return httpx.post(f"{base}/api/auth/login/", data=data, headers=headers, timeout=60)


def deep_json(depth: int = 100_000) -> bytes:
    return b'{"question": ' + b"[" * depth + b"]" * depth + b"}"


def post_raw(url: str, body: bytes, headers: dict[str, str] | None = None) -> httpx.Response:
    headers = {"Content-Type": "application/json", **(headers or {})}
    return httpx.post(url, content=body, headers=headers, timeout=60)


def slack_signed(body: bytes, *, secret: str, timestamp: str) -> dict[str, str]:
    base = b"v0:" + timestamp.encode() + b":" + body
    digest = hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    return {"X-Slack-Signature": f"v0={digest}", "X-Slack-Request-Timestamp": timestamp}


def announce_huge_upload(base: str, path: str, *, length: int, timeout: float = 10) -> bytes:
    """Sends the headers of an upload of `length` bytes and 1 KiB of it, then reads what the
    server answers (within `timeout`: a server that waits for the rest answers nothing)."""
    parts = urlsplit(base)
    with socket.create_connection((parts.hostname, parts.port), timeout=timeout) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
            "Content-Type: multipart/form-data; boundary=x\r\n"
            f"Content-Length: {length}\r\n\r\n".encode()
            + b"x" * 1024
        )
        received = b""
        try:
            while b"\r\n\r\n" not in received or not received.rstrip().endswith(b"}"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
        except TimeoutError:
            pass
    return received


def json_body(raw_response: bytes) -> dict:
    return dict(json.loads(raw_response.split(b"\r\n\r\n", 1)[1]))
