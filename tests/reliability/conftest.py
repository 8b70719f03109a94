"""Shared by the drills: a copy of the small docs site served on loopback, which a drill may
edit (slow a page, change a page) without touching the original."""

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes.docs_site import SMALL_DOCS, DocsSite


@pytest.fixture
def site(tmp_path: Path) -> Iterator[DocsSite]:
    root = tmp_path / "site"
    shutil.copytree(SMALL_DOCS, root)
    with DocsSite(root) as served:
        yield served
