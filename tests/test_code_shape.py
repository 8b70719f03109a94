"""The code's shape: no source or doc file over 400 lines."""

import os
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

MAX_LINES = 400
SOURCE_SUFFIXES = {".py", ".ts", ".tsx", ".js", ".mjs", ".css", ".sh", ".md"}
SIZE_ROOTS = ("backend", "tests", "frontend", "docs")
# Not written by hand (installed, built, generated) or data the tests serve.
SKIPPED_FOLDERS = {"node_modules", ".next", "dist", "migrations", "__pycache__", "sites"}
SKIPPED_FILES = {REPO / "frontend" / "lib" / "api" / "schema.d.ts"}  # generated from the API


def source_files(root: Path) -> Iterator[Path]:
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [
            name for name in subfolders if name not in SKIPPED_FOLDERS and not name.startswith(".")
        ]
        for name in files:
            path = Path(folder) / name
            if path.suffix in SOURCE_SUFFIXES and path not in SKIPPED_FILES:
                yield path


def too_long(roots: list[Path]) -> dict[str, int]:
    found = {}
    for root in roots:
        for path in source_files(root):
            lines = len(path.read_text(errors="replace").splitlines())
            if lines > MAX_LINES:
                found[str(path.relative_to(root.parent))] = lines
    return found


def test_no_source_or_doc_file_is_over_400_lines():
    roots = [REPO / name for name in SIZE_ROOTS]
    found = too_long(roots)
    found.update(
        {
            path.name: n
            for path in REPO.glob("*.md")
            if (n := len(path.read_text().splitlines())) > MAX_LINES
        }
    )
    assert found == {}, f"split these by topic: {found}"


def test_the_check_finds_a_long_file(tmp_path):
    package = tmp_path / "product"
    package.mkdir()
    (package / "long.ts").write_text("export {};\n" * (MAX_LINES + 1))
    (package / "migrations").mkdir()
    (package / "migrations" / "0001_initial.py").write_text("x = 1\n" * (MAX_LINES + 1))

    assert too_long([package]) == {"product/long.ts": MAX_LINES + 1}
