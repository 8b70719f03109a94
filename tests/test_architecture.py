"""ARCHITECTURE.md's package map names exactly the packages under backend/openguru/."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PRODUCT = REPO / "backend" / "openguru"
# Django's own folders inside an app, not packages of ours.
DJANGO_FOLDERS = {"migrations", "management", "commands"}


def packages_in_code() -> set[str]:
    found = set()
    for init in PRODUCT.rglob("__init__.py"):
        parts = init.parent.relative_to(PRODUCT).parts
        if parts and not DJANGO_FOLDERS & set(parts):
            found.add("/".join(parts))
    return found


def packages_in_map() -> set[str]:
    text = (REPO / "ARCHITECTURE.md").read_text()
    section = text.split("## Packages", 1)[1].split("```", 2)[1]
    lines = section.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "openguru/")
    named: set[str] = set()
    parent = ""
    for line in lines[start + 1 :]:
        indent = len(line) - len(line.lstrip())
        if indent <= 2:  # back at backend/'s level: the map of openguru/ is over
            break
        # A package's line is its name, then two spaces and what it holds.
        folders = re.findall(r"([a-z_0-9]+)/", line.strip().split("  ", 1)[0])
        if indent == 4:
            parent = folders[0]
            named.add(parent)
        else:
            named.update(f"{parent}/{folder}" for folder in folders)
    return named


def test_the_package_map_matches_the_code() -> None:
    in_code, in_map = packages_in_code(), packages_in_map()
    assert in_code - in_map == set(), "packages missing from ARCHITECTURE.md's map"
    assert in_map - in_code == set(), "ARCHITECTURE.md's map names packages that do not exist"


def test_the_map_is_read_as_written() -> None:
    """The reader itself: a map with one package fewer is caught."""
    assert {"answers", "answers/engine", "integrations/bots", "providers/llm"} <= packages_in_map()
    assert "benchmarks" not in packages_in_map()
