"""Damaged uploads of every format beyond PDFs, through their real loaders: a well-made file
(tests/sources/file_makers.py) with bytes cut out of one of its parts and others put in, the
zip container written again so that only the part's content is wrong, or a text file with
bytes changed anywhere. Each is read or refused with a DomainError in words; no parser's own
exception escapes the loader (the worker would report it as an internal error)."""

import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openguru.core.errors import DomainError
from openguru.sources.loaders.base import LoadRequest
from openguru.sources.loaders.registry import loader_for

from tests.fuzz.strategies import fuzz
from tests.sources.file_makers import (
    briefing_pptx,
    camp_guide_markdown,
    field_notes_html,
    handbook_docx,
    park_xlsx,
    sightings_csv,
    stories_epub,
)

ZIPPED: dict[str, tuple[str, Callable[[], bytes]]] = {
    "docx": ("handbook.docx", handbook_docx),
    "pptx": ("briefing.pptx", briefing_pptx),
    "xlsx": ("park.xlsx", park_xlsx),
    "epub": ("stories.epub", stories_epub),
}
TEXT: dict[str, tuple[str, Callable[[], bytes]]] = {
    "csv": ("sightings.csv", sightings_csv),
    "html": ("notes.html", field_notes_html),
    "markdown": ("guide.md", camp_guide_markdown),
}
# Bytes an XML or text parser stumbles on: markup, entities, quotes, NULs, broken UTF-8.
JUNK = st.binary(max_size=40) | st.sampled_from(
    [b"<", b"</w:p>", b"&#0;", b"&bogus;", b'"', b"\x00", b"\xff\xfe", b"<!DOCTYPE x [", b"]]>"]
)


def load(kind: str, path: Path) -> None:
    """Reads the file to its last document, as the indexer does; a refusal must be in words."""
    request = LoadRequest(source_id=1, url="/media/sources/upload", file_path=str(path))
    try:
        result = loader_for(kind).load(request, on_progress=lambda progress: None)
        documents = list(result.documents)
    except DomainError as refused:
        assert refused.code and len(refused.msg) > 20, refused.msg
        return
    assert all(isinstance(document.text, str) for document in documents)


def rezipped(data: bytes, target: str, change: Callable[[bytes], bytes]) -> bytes:
    """`data`'s zip container written again with `change` made to its part `target`: every
    CRC right, only the content wrong."""
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            content = source.read(info)
            archive.writestr(info.filename, change(content) if info.filename == target else content)
    return buffer.getvalue()


def with_part_damaged(data: bytes, member: int, at: float, cut: int, junk: bytes) -> bytes:
    """One XML part of `data` with `cut` bytes removed at `at` (a share of its length) and
    `junk` put in their place."""
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    parts = [name for name in names if name.endswith((".xml", ".xhtml", ".opf"))]

    def damage(content: bytes) -> bytes:
        start = int(len(content) * at)
        return content[:start] + junk + content[start + cut :]

    return rezipped(data, parts[member % len(parts)], damage)


@pytest.mark.parametrize("kind", list(ZIPPED))
def test_a_file_with_a_damaged_part_is_read_or_refused_in_words(
    kind: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    name, make = ZIPPED[kind]
    original = make()
    folder = tmp_path_factory.mktemp(kind)

    @fuzz(40)
    @given(
        member=st.integers(min_value=0, max_value=50),
        at=st.floats(min_value=0, max_value=1),
        cut=st.integers(min_value=0, max_value=200),
        junk=JUNK,
    )
    def check(member: int, at: float, cut: int, junk: bytes) -> None:
        path = folder / name
        path.write_bytes(with_part_damaged(original, member, at, cut, junk))
        load(kind, path)

    check()


@pytest.mark.parametrize("kind", list(TEXT))
def test_a_text_file_with_bytes_changed_is_read_or_refused_in_words(
    kind: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    name, make = TEXT[kind]
    original = make()
    folder = tmp_path_factory.mktemp(kind)

    @fuzz(40)
    @given(at=st.floats(min_value=0, max_value=1), cut=st.integers(0, 50), junk=JUNK)
    def check(at: float, cut: int, junk: bytes) -> None:
        start = int(len(original) * at)
        path = folder / name
        path.write_bytes(original[:start] + junk + original[start + cut :])
        load(kind, path)

    check()


@pytest.mark.parametrize("kind", ["docx", "pptx"])
def test_a_file_whose_properties_are_damaged_is_read_under_its_name(
    kind: str, tmp_path: Path
) -> None:
    # The properties part's declared type made unknown: python-docx and python-pptx then load it
    # as a plain part and fail on its title (found by the fuzzing above). The body is whole.
    name, make = ZIPPED[kind]
    core = b"application/vnd.openxmlformats-package.core-properties+xml"
    path = tmp_path / name
    path.write_bytes(
        rezipped(make(), "[Content_Types].xml", lambda xml: xml.replace(core, b"application/xml"))
    )
    request = LoadRequest(source_id=1, url="/media/sources/upload", file_path=str(path))
    documents = list(loader_for(kind).load(request, on_progress=lambda _: None).documents)
    assert documents and all(document.title.startswith(name) for document in documents)
