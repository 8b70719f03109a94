"""The same probes on the embedded default, SQLite (what a bare `make run` stores in)."""

import pytest

from tests.security.test_probes import *  # noqa: F403

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]
