"""PdfLoader on real PDF files written here with reportlab and pypdf."""

from pathlib import Path
from typing import Any

import pytest
from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.loaders.base import LoadProgress, LoadRequest
from openguru.sources.loaders.pdf import PdfLoader
from pypdf import PdfReader, PdfWriter
from pytest_django.fixtures import Settings
from reportlab.pdfgen import canvas

PUBLIC_URL = "http://testserver/media/sources/handbook.pdf"


def write_pdf(path: Path, pages: list[list[str]], *, title: str | None = None) -> Path:
    pdf = canvas.Canvas(str(path))
    if title is not None:
        pdf.setTitle(title)
    for lines in pages:
        for row, line in enumerate(lines):
            pdf.drawString(72, 720 - 16 * row, line)
        if not lines:
            pdf.rect(72, 600, 200, 100)  # a page with a drawing and no text
        pdf.showPage()
    pdf.save()
    return path


def load(path: Path, **request: Any) -> tuple[list, list[LoadProgress]]:
    progress: list[LoadProgress] = []
    options = {"source_id": 1, "url": PUBLIC_URL, "file_path": str(path), **request}
    result = PdfLoader().load(
        LoadRequest(**options),
        on_progress=lambda p: progress.append(LoadProgress(**vars(p))),
    )
    return list(result.documents), progress


def encrypted_copy(source: Path, target: Path, *, user_password: str) -> Path:
    writer = PdfWriter(clone_from=PdfReader(source))
    writer.encrypt(user_password=user_password, owner_password="owner-secret", algorithm="AES-256")
    writer.write(target)
    return target


@pytest.fixture
def handbook(tmp_path: Path) -> Path:
    return write_pdf(
        tmp_path / "handbook.pdf",
        [
            ["Chapter one: installing the widget.", "Run the installer twice."],
            ["Chapter two: configuring the widget.", "Set WIDGET_MODE to fast."],
            ["Chapter three: troubleshooting."],
        ],
        title="Widget Handbook",
    )


def test_one_document_per_page_with_page_links(handbook: Path) -> None:
    documents, progress = load(handbook)

    assert [doc.metadata["page"] for doc in documents] == [1, 2, 3]
    assert [doc.link for doc in documents] == [f"{PUBLIC_URL}#page={n}" for n in (1, 2, 3)]
    assert {doc.title for doc in documents} == {"Widget Handbook"}
    assert {doc.format for doc in documents} == {"text"}
    assert "Set WIDGET_MODE to fast." in documents[1].text
    assert "installer" not in documents[1].text
    assert progress[0].discovered == 3
    assert (progress[-1].fetched, progress[-1].failed) == (3, 0)


def test_private_source_has_no_links(handbook: Path) -> None:
    documents, _ = load(handbook, private=True)

    assert [doc.link for doc in documents] == ["", "", ""]


def test_title_falls_back_to_request_title_then_file_name(tmp_path: Path) -> None:
    # reportlab writes the placeholder title "untitled" when none is set.
    plain = write_pdf(tmp_path / "notes-2024.pdf", [["Some notes about widgets."]])

    titled, _ = load(plain, title="Team notes")
    untitled, _ = load(plain)

    assert titled[0].title == "Team notes"
    assert untitled[0].title == "notes-2024.pdf"


def test_pages_without_text_are_skipped(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "mixed.pdf", [["Text on the first page."], [], ["Third page."]])

    documents, _ = load(path)

    assert [doc.metadata["page"] for doc in documents] == [1, 3]


def test_pdf_with_empty_user_password_is_read(handbook: Path, tmp_path: Path) -> None:
    locked = encrypted_copy(handbook, tmp_path / "owner-only.pdf", user_password="")

    documents, _ = load(locked)

    assert len(documents) == 3
    assert "Chapter one" in documents[0].text


def test_password_protected_pdf_is_refused(handbook: Path, tmp_path: Path) -> None:
    locked = encrypted_copy(handbook, tmp_path / "locked.pdf", user_password="s3cret")

    with pytest.raises(DomainError) as error:
        load(locked)

    assert error.value.code == ErrorCode.INVALID_FILE
    assert "password" in error.value.msg


def test_text_file_renamed_to_pdf_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "report.pdf"
    fake.write_text("Quarterly report\nRevenue went up.\n")

    with pytest.raises(DomainError) as error:
        load(fake)

    assert error.value.code == ErrorCode.INVALID_FILE
    assert "not a PDF" in error.value.msg


def test_damaged_pdf_is_refused(handbook: Path, tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(handbook.read_bytes()[:300])  # header present, body and xref cut off

    with pytest.raises(DomainError) as error:
        load(damaged)

    assert error.value.code == ErrorCode.INVALID_FILE


def test_pdf_over_the_size_limit_is_refused(handbook: Path, settings: Settings) -> None:
    settings.PDF_MAX_BYTES = handbook.stat().st_size - 1

    with pytest.raises(DomainError) as error:
        load(handbook)

    assert error.value.code == ErrorCode.FILE_TOO_LARGE


def test_pdf_without_any_text_has_nothing_to_index(tmp_path: Path) -> None:
    scanned = write_pdf(tmp_path / "scan.pdf", [[], []], title="Scan")

    with pytest.raises(DomainError) as error:
        load(scanned)

    assert error.value.code == ErrorCode.NOTHING_TO_INDEX


def test_missing_upload_is_an_invalid_file(tmp_path: Path) -> None:
    with pytest.raises(DomainError) as error:
        load(tmp_path / "gone.pdf")

    assert error.value.code == ErrorCode.INVALID_FILE


def test_a_pages_wrapped_lines_are_joined_into_sentences(tmp_path: Path) -> None:
    path = write_pdf(
        tmp_path / "ops.pdf",
        [
            [
                "Configuration",
                "The configu-",
                "ration file sets how many workers run",
                "on each host and where the cache is stored.",
                "- workers: the number of processes",
            ]
        ],
    )
    documents, _ = load(path)
    assert documents[0].text.splitlines() == [
        "Configuration",  # a title keeps its own line
        "The configuration file sets how many workers run on each host and where the cache"
        " is stored.",
        "- workers: the number of processes",  # and so does a list item
    ]
