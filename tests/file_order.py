"""The order files run in (a pytest plugin, registered in tests/conftest.py): the long ones first.

`make test` hands whole files to two workers (`--dist loadfile --no-loadscope-reorder`, so this
order is kept), each taking the next file as it nears the end of its own. Left in collection
order, or xdist's own (most tests first), the files with a few long tests (worker and broker
drills, browser flows, production builds) come last, and one worker runs them while the other
has nothing left to take. Started first, they overlap; the short files fill the end evenly.
The tests inside a file keep their order."""

import pytest

# A test asking for these drives the live servers or a browser: tens of seconds each.
_LONG_FIXTURES = {"chromium", "next_dev", "live_api"}


def _is_long(item: pytest.Item) -> bool:
    return item.get_closest_marker("slow") is not None or bool(
        _LONG_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not hasattr(config, "workerinput"):
        return  # one process runs the tests in pytest-django's order; only xdist hands out files
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    # Long files first, then the files with most tests (xdist's own order): sorted() is stable.
    ordered = sorted(files.values(), key=lambda tests: (not any(map(_is_long, tests)), -len(tests)))
    items[:] = [item for tests in ordered for item in tests]
