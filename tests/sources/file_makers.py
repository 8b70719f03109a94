"""Real files of every uploadable format, written in the test by the format's own library (or,
for EPUB, zip containers written by hand as the specification lays them out), and broken ones.

Each file holds one fact that only one of its parts states (a heading, a slide, a sheet), so a
question about it must be answered from, and cite, exactly that part."""

import csv
import functools
import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass

import docx
import openpyxl
import pptx

from tests.sources.ingestion_helpers import ANIMALS


@dataclass(frozen=True)
class Sample:
    name: str  # the uploaded file's name
    make: Callable[[], bytes]
    question: str  # answered by one part of the file only
    fact: str  # words of the answer, as the file states them
    anchor: str  # what that part's citation link ends with ("" for a file without parts)
    # Rows are no sentences: the extractive answer (no language model in tests) quotes none.
    tabular: bool = False


def _filler(animal: str) -> str:
    return (
        f"The {animal} is a savanna animal that rangers observe on foot. Rangers record "
        f"where each {animal} sleeps, what it eats and how far it travels each night."
    )


def handbook_docx() -> bytes:
    document = docx.Document()
    document.core_properties.title = "Ranger Handbook"
    document.add_heading("Ranger Handbook", 0)
    for animal in ANIMALS:
        document.add_heading(f"Tracking the {animal}", 1)
        document.add_paragraph(_filler(animal))
    document.add_heading("Night calls", 2)
    document.add_paragraph("The dingo howls twice before midnight to call its pack home.")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Animal", "Call"
    table.cell(1, 0).text, table.cell(1, 1).text = "Bison", "Low grunt"
    return _saved(document)


def briefing_pptx() -> bytes:
    deck = pptx.Presentation()
    deck.core_properties.title = "Ranger Briefing"
    slides = [
        ("Welcome", "Rangers meet at the north gate every morning."),
        ("Routes", "The east route follows the river past the watering holes."),
        ("Cheetah feeding", "The cheetah is fed zebra meat on Thursdays at dawn."),
    ]
    for title, body in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = f"{body} {_filler('bison')}"
    deck.slides[1].notes_slide.notes_text_frame.text = "Remind the rangers about the ford."
    return _saved(deck)


def park_xlsx() -> bytes:
    book = openpyxl.Workbook()
    animals = book.active
    animals.title = "Animals"
    animals.append(["Animal", "Habitat", "Diet"])
    for animal in ANIMALS:
        animals.append([animal.title(), "Savanna", "Grass and leaves"])
    prices = book.create_sheet("Prices")
    prices.append(["Item", "Price in dollars"])
    prices.append(["Night safari permit", 45])
    prices.append(["Day pass", 12.5])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def sightings_csv() -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["Animal", "Where it was seen"])
    writer.writerow(["Aardvark", "South fence"])
    writer.writerow(["Pangolin", "Rocky ridge"])
    return buffer.getvalue().encode()


def field_notes_html() -> bytes:
    sections = "".join(
        f"<h2>Spotting the {animal}</h2><p>{_filler(animal)}</p>" for animal in ANIMALS
    )
    return (
        "<!doctype html><html><head><title>Field Notes</title>"
        "<script>document.title = 'scripts never run'</script></head><body>"
        "<nav><a href='/'>Home</a></nav><main><h1>Field Notes</h1>"
        f"{sections}<h2 id='ford-crossing'>Crossing the ford</h2>"
        "<p>Rangers cross the ford only when the river gauge reads under one metre.</p>"
        "</main><footer>Park office</footer></body></html>"
    ).encode()


def camp_guide_markdown() -> bytes:
    parts = ["# Camp Guide\n"]
    parts += [f"## Feeding the {animal}\n\n{_filler(animal)}\n" for animal in ANIMALS]
    parts.append("## Campfire rules\n\nCampfires are lit only inside the stone rings after six.\n")
    return "\n".join(parts).encode()


CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf"
    media-type="application/oebps-package+xml"/></rootfiles>
</container>"""


def _package(chapters: list[str]) -> str:
    items = "".join(
        f'<item id="c{n}" href="{name}" media-type="application/xhtml+xml"/>'
        for n, name in enumerate(chapters)
    )
    spine = "".join(f'<itemref idref="c{n}"/>' for n in range(len(chapters)))
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        "<dc:title>Savanna Stories</dc:title><dc:identifier id='id'>savanna</dc:identifier>"
        f"</metadata><manifest>{items}</manifest><spine>{spine}</spine></package>"
    )


def _chapter(title: str, body: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml">'
        f"<head><title>Savanna Stories</title></head><body><section id='sec1'>"
        f"<h1>{title}</h1><p>{body}</p></section></body></html>"
    )


def stories_epub(*, container: str = CONTAINER, encryption: str = "") -> bytes:
    chapters = {
        "text/ch1.xhtml": _chapter("The bison herd", _filler("bison")),
        "text/ch2.xhtml": _chapter(
            "The lost pangolin", "The pangolin hid for three days inside the hollow baobab."
        ),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/container.xml", container)
        if encryption:
            archive.writestr("META-INF/encryption.xml", encryption)
        archive.writestr("OEBPS/content.opf", _package(list(chapters)))
        for name, xhtml in chapters.items():
            archive.writestr(f"OEBPS/{name}", xhtml)
    return buffer.getvalue()


def _saved(document: object) -> bytes:
    buffer = io.BytesIO()
    document.save(buffer)  # type: ignore[attr-defined]
    return buffer.getvalue()


SAMPLES = {
    "docx": Sample(
        "ranger-handbook.docx",
        handbook_docx,
        "When does the dingo howl to call its pack?",
        "howls twice before midnight",
        "#night-calls",
    ),
    "pptx": Sample(
        "ranger-briefing.pptx",
        briefing_pptx,
        "What is the cheetah fed on Thursdays?",
        "fed zebra meat on Thursdays",
        "#slide-3",
    ),
    "xlsx": Sample(
        "park.xlsx",
        park_xlsx,
        "What does the night safari permit cost in dollars?",
        "Night safari permit; Price in dollars: 45",
        "#sheet-Prices",
        tabular=True,
    ),
    "csv": Sample(
        "sightings.csv",
        sightings_csv,
        "Where was the pangolin seen?",
        "Animal: Pangolin; Where it was seen: Rocky ridge",
        "",
        tabular=True,
    ),
    "html": Sample(
        "field-notes.html",
        field_notes_html,
        "When do rangers cross the ford?",
        "river gauge reads under one metre",
        "#ford-crossing",
    ),
    "markdown": Sample(
        "camp-guide.md",
        camp_guide_markdown,
        "Where are campfires lit?",
        "inside the stone rings",
        "#campfire-rules",
    ),
    "epub": Sample(
        "savanna-stories.epub",
        stories_epub,
        "Where did the pangolin hide?",
        "inside the hollow baobab",
        "#the-lost-pangolin",
    ),
}


# --- broken files ---------------------------------------------------------------------------------


def cut(data: bytes) -> bytes:
    """The first half of a file: a zip container whose directory never arrives."""
    return data[: len(data) // 2]


@functools.cache
def zip_bomb(inner: str, *, unpacked: int = 256 * 1024 * 1024) -> bytes:
    """A zip container of about a megabyte whose one member unpacks to `unpacked` zero bytes
    (past the default FILE_UNZIPPED_MAX_BYTES of 200 MB)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open(inner, "w", force_zip64=True) as member:
            block = bytes(1024 * 1024)
            for _ in range(unpacked // len(block)):
                member.write(block)
    return buffer.getvalue()


DRM_ENCRYPTION = """<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container"
 xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>
 <enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>
 <enc:CipherData><enc:CipherReference URI="OEBPS/text/ch1.xhtml"/></enc:CipherData>
 </enc:EncryptedData></encryption>"""

BINARY = bytes(range(256)) * 64  # NUL bytes and all: no text format

# What each format's broken file is, and a phrase of the reason the admin reads.
MALFORMED: dict[str, tuple[str, Callable[[], bytes], str]] = {
    "docx cut in half": ("notes.docx", lambda: cut(handbook_docx()), "not a valid Word document"),
    "docx without its body": (
        "notes.docx",
        lambda: _zip({"[Content_Types].xml": "<Types/>"}),
        "Word document could not be read",
    ),
    "pptx cut in half": ("deck.pptx", lambda: cut(briefing_pptx()), "not a valid PowerPoint"),
    "xlsx cut in half": ("book.xlsx", lambda: cut(park_xlsx()), "not a valid Excel workbook"),
    "xlsx that is a csv": ("book.xlsx", sightings_csv, "not a valid Excel workbook"),
    "csv with an unclosed quote": (
        "log.csv",
        lambda: b'Date,Note\n2025-03-01,"the gate was left open\n2025-03-02,ok\n',
        "CSV file could not be read",
    ),
    "csv that is binary": ("log.csv", lambda: BINARY, "binary data"),
    "html that is binary": ("page.html", lambda: BINARY, "binary data"),
    "markdown that is binary": ("notes.md", lambda: BINARY, "binary data"),
    "epub cut in half": ("book.epub", lambda: cut(stories_epub()), "not a valid EPUB"),
    "epub without its package": (
        "book.epub",
        lambda: stories_epub(container=CONTAINER.replace("content.opf", "missing.opf")),
        "EPUB book could not be read",
    ),
    "epub with DRM": ("book.epub", lambda: stories_epub(encryption=DRM_ENCRYPTION), "DRM"),
}


def many_parts(count: int) -> bytes:
    """A zip container of `count` tiny members: cheap to store, costly to list and parse."""
    return _zip({f"word/media/part{n}.xml": "<p/>" for n in range(count)})


def _zip(members: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()
