"""The code's shape: no source or doc file over 400 lines, and no block of six or more lines
copied within the product code (migrations aside)."""

import ast
import os
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

MAX_LINES = 400
SOURCE_SUFFIXES = {".py", ".ts", ".tsx", ".js", ".mjs", ".css", ".sh", ".md"}
SIZE_ROOTS = ("backend", "tests", "frontend", "docs")
# Not written by hand (installed, built, generated) or data the tests serve.
SKIPPED_FOLDERS = {"node_modules", ".next", "dist", "migrations", "__pycache__", "sites"}
SKIPPED_FILES = {REPO / "frontend" / "lib" / "api" / "schema.d.ts"}  # generated from the API

COPY_LINES = 6
PRODUCT_ROOTS = ("backend/openguru", "backend/config")
# A line that says nothing on its own: closing brackets, a bare `*,` or `self,`.
NOTHING_SAID = re.compile(r"^[()\[\]{},:*]*$|^self,$")


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


def meaningful_lines(source: str) -> list[tuple[int, str]]:
    """The lines a copy is made of, stripped: no blanks, comments, imports, the parameter lines
    of a signature (implementations of one protocol share them) or lines that say nothing."""
    left_out: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            left_out.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            left_out.update(range(node.lineno + 1, node.body[0].lineno))
    kept = []
    for number, line in enumerate(source.splitlines(), 1):
        text = line.strip()
        said = text and not text.startswith("#") and not NOTHING_SAID.match(text)
        if said and number not in left_out:
            kept.append((number, text))
    return kept


def copied_blocks(root: Path) -> dict[tuple[str, ...], list[str]]:
    """Every run of COPY_LINES meaningful lines found in more than one place."""
    places: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        lines = meaningful_lines(path.read_text())
        for start in range(len(lines) - COPY_LINES + 1):
            block = tuple(text for _, text in lines[start : start + COPY_LINES])
            places[block].append(f"{path.relative_to(root.parent)}:{lines[start][0]}")
    return {block: where for block, where in places.items() if len(where) > 1}


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


def test_no_block_of_six_lines_is_copied_in_the_product_code():
    copies = {}
    for name in PRODUCT_ROOTS:
        copies.update(copied_blocks(REPO / name))
    described = ["\n".join([", ".join(where), *block]) for block, where in copies.items()]
    assert copies == {}, "factor these out:\n\n" + "\n\n".join(described)


def test_the_checks_find_a_long_file_and_a_copied_block(tmp_path):
    package = tmp_path / "product"
    package.mkdir()
    body = "".join(f"    total += {n} * weight\n" for n in range(COPY_LINES))
    for name in ("one.py", "two.py"):
        (package / name).write_text(
            f"def {name[:3]}(weight):\n    total = 0\n{body}    return total\n"
        )
    (package / "long.ts").write_text("export {};\n" * (MAX_LINES + 1))
    (package / "migrations").mkdir()
    (package / "migrations" / "0001_initial.py").write_text("x = 1\n" * (MAX_LINES + 1))

    assert too_long([package]) == {"product/long.ts": MAX_LINES + 1}
    copies = copied_blocks(package)
    assert ["product/one.py:2", "product/two.py:2"] in copies.values()
    assert all("migrations" not in place for where in copies.values() for place in where)
