"""One test that times out fails alone (a pytest plugin, registered in tests/conftest.py).

pytest-timeout stops a test by raising from a SIGALRM handler, wherever the test happens to be.
Inside a PostgreSQL query that leaves both ends of the connection busy, because psycopg cancels
a query only on KeyboardInterrupt:
- the server goes on running the query, holding its locks (the next test's flush waits on them,
  and the test database cannot be dropped);
- the client still waits for the result, so every later use of the connection (the test's own
  rollback or flush, then the next tests on this process) fails with "another command is
  already in progress".
So the timeout first cancels the running queries on the server, and after any phase of a test
raises, a connection still mid-command is closed; Django opens a fresh one when the next
statement needs it. Servers, workers and broker clients stop in the `finally` of the fixtures
and `with` blocks that started them, which the timeout's exception unwinds like any other.

The terminal summary names each test that timed out, so it is not lost among the failures it
may still cause.
"""

import re
import signal
from collections.abc import Generator, Iterator
from types import FrameType
from typing import Any

import pytest
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg.pq import TransactionStatus

TIMED_OUT = "timed_out"
# What pytest-timeout's signal method raises (pytest.fail) with.
_TIMEOUT_MESSAGE = re.compile(r"Timeout \(>[\d.]+s\) from pytest-timeout\.")


def _busy_connections() -> Iterator[BaseDatabaseWrapper]:
    """This thread's PostgreSQL connections in the middle of a command."""
    for connection in connections.all(initialized_only=True):
        raw = connection.connection
        if connection.vendor != "postgresql" or raw is None or raw.closed:
            continue
        if raw.pgconn.transaction_status == TransactionStatus.ACTIVE:
            yield connection


def cancel_busy_queries() -> None:
    for connection in _busy_connections():
        connection.connection.cancel_safe(timeout=5.0)


def discard_busy_connections() -> None:
    for connection in list(_busy_connections()):
        connection.connection.close()
        connection.close()  # Django forgets it; the next statement opens a fresh one


@pytest.hookimpl(wrapper=True, optionalhook=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> Generator[None, Any, Any]:
    installed = yield
    time_out = signal.getsignal(signal.SIGALRM)
    if callable(time_out):  # the signal method: wrap its handler

        def cancel_then_time_out(signum: int, frame: FrameType | None) -> None:
            __tracebackhide__ = True
            cancel_busy_queries()
            time_out(signum, frame)

        signal.signal(signal.SIGALRM, cancel_then_time_out)
    return installed


def _discard_after_failure() -> Generator[None, object, object]:
    try:
        return (yield)
    except BaseException:
        discard_busy_connections()
        raise


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _discard_after_failure())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _discard_after_failure())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _discard_after_failure())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if _timed_out(call.excinfo):
        # user_properties travel with the report to the pytest-xdist controller.
        report.user_properties.append((TIMED_OUT, call.when))
    return report


def _timed_out(excinfo: pytest.ExceptionInfo[BaseException] | None) -> bool:
    return (
        excinfo is not None
        and excinfo.errisinstance(pytest.fail.Exception)
        and _TIMEOUT_MESSAGE.fullmatch(str(excinfo.value)) is not None
    )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    reports = terminalreporter.stats.get("failed", []) + terminalreporter.stats.get("error", [])
    timed_out = [
        (report.nodeid, when)
        for report in reports
        for name, when in getattr(report, "user_properties", ())
        if name == TIMED_OUT
    ]
    if timed_out:
        terminalreporter.section("tests that timed out", sep="=", red=True, bold=True)
        for nodeid, when in timed_out:
            terminalreporter.line(f"TIMED OUT: {nodeid} (in {when})")
