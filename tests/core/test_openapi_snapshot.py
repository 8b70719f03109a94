"""The OpenAPI document is a contract with every client: it changes only on purpose.

The schema `/api/schema/` serves is compared with the committed snapshot. After an intended
change, refresh the snapshot with `make openapi-snapshot` and review its diff.
"""

import difflib
import json
import os
from pathlib import Path

import pytest
from django.test import Client

# The schema's integer bounds come from the database backend (PostgreSQL's integer fields are
# narrower than SQLite's): the snapshot is of the embedded default, and so is this test.
pytestmark = pytest.mark.sqlite

SNAPSHOT = Path(__file__).with_name("openapi_snapshot.json")


def schema_text(schema: dict) -> str:
    return json.dumps(schema, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def test_the_schema_is_the_committed_snapshot():
    served = Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    actual = schema_text(served)
    if os.environ.get("OPENAPI_SNAPSHOT_WRITE") == "1":  # `make openapi-snapshot`
        SNAPSHOT.write_text(actual)
    expected = SNAPSHOT.read_text()
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "snapshot", "served", lineterm="", n=2
        )
        raise AssertionError(
            "The OpenAPI schema changed; if on purpose, run `make openapi-snapshot`:\n"
            + "\n".join(list(diff)[:80])
        )
