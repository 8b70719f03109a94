"""Production settings: Django's deploy check finds nothing with a production environment, and
a missing secret or host list stops startup with the variable's name."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

BACKEND = Path(__file__).resolve().parents[2] / "backend"

PRODUCTION = {
    "DJANGO_PRODUCTION": "true",
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
    "DJANGO_ALLOWED_HOSTS": "guru.example.com",
}


def manage(tmp_path: Path, *args: str, **overrides: str) -> subprocess.CompletedProcess[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "PYTEST_"))  # nothing of this run's settings
    }
    env |= {"OPENGURU_DATA_DIR": str(tmp_path), **PRODUCTION, **overrides}
    env = {key: value for key, value in env.items() if value != "<unset>"}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BACKEND,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def check_deploy(tmp_path: Path, *args: str, **overrides: str) -> subprocess.CompletedProcess[str]:
    return manage(tmp_path, "check", "--deploy", "--fail-level", "WARNING", *args, **overrides)


def host_settings(tmp_path: Path, **overrides: str) -> dict[str, list[str]]:
    names = ["ALLOWED_HOSTS", "INTERNAL_HOSTS", "CSRF_TRUSTED_ORIGINS"]
    script = (
        "import json; from django.conf import settings; "
        f"print(json.dumps({{name: getattr(settings, name) for name in {names!r}}}))"
    )
    result = manage(tmp_path, "shell", "-c", script, **overrides)
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout.splitlines()[-1]))


@pytest.mark.slow  # every check, the OpenAPI schema's included
def test_the_production_environment_passes_the_deploy_check(tmp_path: Path) -> None:
    result = check_deploy(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_without_production_the_deploy_check_warns(tmp_path: Path) -> None:
    # The embedded defaults (loopback, plain HTTP) are not a deployment: the check says so.
    result = check_deploy(
        tmp_path, "--tag", "security", DJANGO_PRODUCTION="<unset>", DJANGO_SECRET_KEY="<unset>"
    )
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W009", "security.W012"):
        assert warning in result.stderr


def test_a_missing_secret_key_stops_startup_with_its_name(tmp_path: Path) -> None:
    result = check_deploy(tmp_path, DJANGO_SECRET_KEY="<unset>")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set in production" in result.stderr


def test_the_example_secret_is_refused(tmp_path: Path) -> None:
    result = check_deploy(tmp_path, DJANGO_SECRET_KEY="change-me")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set in production" in result.stderr


def test_a_short_secret_key_is_refused(tmp_path: Path) -> None:
    result = check_deploy(tmp_path, DJANGO_SECRET_KEY="x1y2z3w4v5" * 3)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is too weak" in result.stderr


def test_missing_allowed_hosts_stop_startup_with_their_name(tmp_path: Path) -> None:
    result = check_deploy(tmp_path, DJANGO_ALLOWED_HOSTS="<unset>")
    assert result.returncode != 0
    assert "DJANGO_ALLOWED_HOSTS must be set in production" in result.stderr


def test_debug_is_refused_in_production(tmp_path: Path) -> None:
    result = check_deploy(tmp_path, DJANGO_DEBUG="true")
    assert result.returncode != 0
    assert "DJANGO_DEBUG must be false in production" in result.stderr


def test_internal_hosts_are_allowed_but_are_no_trusted_origins(tmp_path: Path) -> None:
    # Redirects of internal hosts: test_production_web.py, against the running backend.
    hosts = host_settings(tmp_path, DJANGO_INTERNAL_HOSTS="Backend,openguru-web")
    assert hosts["INTERNAL_HOSTS"] == ["backend", "openguru-web"]
    assert hosts["ALLOWED_HOSTS"] == ["guru.example.com", "backend", "openguru-web"]
    assert hosts["CSRF_TRUSTED_ORIGINS"] == ["https://guru.example.com"]


def test_the_pods_own_address_is_an_internal_host(tmp_path: Path) -> None:
    """Prometheus scrapes a web pod by its IP, which no operator lists as a host name."""
    hosts = host_settings(tmp_path, DJANGO_INTERNAL_HOSTS="openguru-web", DJANGO_POD_IP="10.4.0.17")
    assert hosts["INTERNAL_HOSTS"] == ["openguru-web", "10.4.0.17"]
    assert "10.4.0.17" in hosts["ALLOWED_HOSTS"]
    assert not any("10.4.0.17" in origin for origin in hosts["CSRF_TRUSTED_ORIGINS"])


def test_an_internal_host_with_a_wildcard_is_refused(tmp_path: Path) -> None:
    result = check_deploy(tmp_path, DJANGO_INTERNAL_HOSTS=".internal")
    assert result.returncode != 0
    assert "DJANGO_INTERNAL_HOSTS lists exact host names" in result.stderr


def test_the_public_url_is_a_trusted_origin(tmp_path: Path) -> None:
    """One public-URL setting: the site behind a proxy on a port of its own."""
    hosts = host_settings(tmp_path, SITE_URL="https://guru.example.com:8443/")
    assert hosts["CSRF_TRUSTED_ORIGINS"] == [
        "https://guru.example.com:8443",
        "https://guru.example.com",
    ]


def test_embedded_origins_follow_the_uis_port(tmp_path: Path) -> None:
    hosts = host_settings(
        tmp_path,
        DJANGO_PRODUCTION="<unset>",
        DJANGO_SECRET_KEY="<unset>",
        SITE_URL="http://127.0.0.1:13100",
    )
    assert hosts["CSRF_TRUSTED_ORIGINS"] == ["http://127.0.0.1:13100", "http://localhost:13100"]
