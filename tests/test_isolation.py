"""A test that times out in the middle of a PostgreSQL query fails alone: the tests after it on
the same process pass, and the summary names it (tests/isolation.py). Checked by running a tiny
suite in a pytest subprocess with a one-second timeout on its slow tests."""

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]

# pytest-django runs the tests in a transaction first, then the transactional ones (in
# autocommit): each slow test here is followed by one of its kind.
PROBE = """
import pytest
from django.db import connection, transaction


def _sleep():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_sleep(10)")


def _others_still_sleeping():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND state = 'active' AND query LIKE 'SELECT pg_sleep%'"
        )
        return cursor.fetchone()[0]


@pytest.mark.django_db
@pytest.mark.timeout(1, func_only=True)
def test_slow_query():
    with transaction.atomic():
        _sleep()


@pytest.mark.django_db
def test_after_slow_query():
    assert _others_still_sleeping() == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(1, func_only=True)
def test_slow_transactional():
    _sleep()


@pytest.mark.django_db(transaction=True)
def test_after_slow_transactional():
    assert _others_still_sleeping() == 0
"""


def _own_database_url() -> str:
    """This run's database with a suffix: the subprocess makes (and drops) its own test copy."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path=f"{parts.path}_isolation"))


def _run_probe(directory: Path) -> subprocess.CompletedProcess[str]:
    (directory / "test_probe.py").write_text(PROBE)
    env = {
        **{name: value for name, value in os.environ.items() if not name.startswith("PYTEST_")},
        "DATABASE_URL": _own_database_url(),
        "PYTHONPATH": str(ROOT),
        # Only the plugins this needs: the others take seconds to import.
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    plugins = ("django", "timeout", "env", "tests.isolation")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "backend" / "pyproject.toml")]
        + [f"--rootdir={directory}", "-p", "no:cacheprovider", "--no-migrations", "-q"]
        + [option for plugin in plugins for option in ("-p", plugin)]
        + [str(directory)],
        cwd=directory,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_a_test_that_times_out_mid_query_fails_alone(tmp_path: Path) -> None:
    assert connection.vendor == "postgresql", "this needs DATABASE_URL=postgres://…"
    result = _run_probe(tmp_path)
    output = result.stdout + result.stderr
    assert "another command is already in progress" not in output, output
    assert "2 failed, 2 passed" in output, output
    assert "TIMED OUT: test_probe.py::test_slow_query (in call)" in output, output
    assert "TIMED OUT: test_probe.py::test_slow_transactional (in call)" in output, output


def test_the_suite_loads_the_isolation_plugin(request: pytest.FixtureRequest) -> None:
    assert request.config.pluginmanager.has_plugin("tests.isolation")
