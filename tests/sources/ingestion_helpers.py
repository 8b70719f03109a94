"""Inputs, fixtures and readers shared by the ingestion end-to-end tests.

Inputs are real: PDFs written by reportlab, git repositories built with GitPython and cloned over
file://, transcripts served by the loopback YouTube stand-in. Results are read back from the
guru's Milvus collection: the chunks a question would retrieve.
"""

import io
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from git import Actor, Repo
from openguru.gurus.models import Guru
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.vectorstore.base import SearchFilter, SearchHit
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.processing import ProcessOutcome, source_process
from PIL import Image
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas
from rest_framework.test import APIClient

from tests.fakes.youtube_server import FakeVideo, FakeYouTubeServer, default_videos

SLUG = "field-guide"
SOURCES = f"/api/gurus/{SLUG}/sources/"
ANIMALS = ("aardvark", "bison", "cheetah", "dingo")
PDF_TITLE = "Field Guide to Savanna Animals"
AUTHOR = Actor("Test Author", "author@example.com")
# What must never reach an admin's screen: stack traces, exception names, paths, tool output.
TECHNICAL_WORDS = re.compile(
    r"traceback|exception|errno|stderr|fatal:|\b[A-Za-z]+Error\b|\.py\b|pypdf|/tmp/"
)
BYSTANDER_TEXT = "\n\n".join(
    f"## Watering hole {n}\n\nHerds visit watering hole {n} at dawn and leave before noon."
    for n in range(6)
)


# --- inputs: PDFs, git repositories ---------------------------------------------------------------


def animal_page(number: int, animal: str) -> list[str]:
    return [
        f"Chapter {number}: the {animal} handbook.",
        f"The {animal} is a savanna animal that rangers observe on foot.",
        f"Rangers record where each {animal} sleeps, what it eats and how far it travels.",
        f"This chapter lists the tracks and calls that identify the {animal} at night.",
    ]


def make_pdf(
    pages: Sequence[Sequence[str]],
    *,
    password: str | None = None,
    noise_pixels: int = 0,
) -> bytes:
    """A real PDF written by reportlab: one page per list of lines. `noise_pixels` adds an
    incompressible image to the first page, to make the file big without changing its text."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4, encrypt=password)
    pdf.setTitle(PDF_TITLE)
    for number, lines in enumerate(pages, start=1):
        text = pdf.beginText(60, 780)
        text.setFont("Helvetica", 11)
        for line in lines:
            text.textLine(line)
        pdf.drawText(text)
        if number == 1 and noise_pixels:
            noise = random.Random(7).randbytes(noise_pixels * noise_pixels * 3)
            image = Image.frombytes("RGB", (noise_pixels, noise_pixels), noise)
            pdf.drawImage(ImageReader(image), 60, 300, width=300, height=300)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def guide_pdf(**options: Any) -> bytes:
    return make_pdf(
        [animal_page(n, animal) for n, animal in enumerate(ANIMALS, start=1)], **options
    )


def widgets_module() -> str:
    """A Python module long enough to need several chunks (the fake embedder reads 256 words)."""
    parts = ['"""Widgets: small dashboard components."""\n\nimport math\n']
    for n in range(18):
        parts.append(
            f"\n\ndef widget_{n}(size: float) -> float:\n"
            f'    """Render widget number {n}: scale the frame, pad the border and return the\n'
            f'    area the widget covers on the dashboard grid after rounding."""\n'
            f"    frame = size * {n + 1}\n"
            f"    return math.ceil(frame * frame + {n})\n"
        )
    return "".join(parts)


def make_repo(path: Path, files: Mapping[str, str], *, branch: str = "trunk") -> Repo:
    repo = Repo.init(path, initial_branch=branch)
    for name, content in files.items():
        target = path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)
    repo.index.add(list(files))
    repo.index.commit("Initial import", author=AUTHOR, committer=AUTHOR)
    return repo


# --- the API and what the store holds -------------------------------------------------------------


@pytest.fixture
def guru(admin_client: APIClient) -> Guru:
    response = admin_client.post(
        "/api/gurus/", {"slug": SLUG, "name": "Field guide"}, format="json"
    )
    assert response.status_code == 201, response.json()
    return Guru.objects.get(slug=SLUG)


@pytest.fixture
def bystander(admin_client: APIClient, guru: Guru) -> int:
    """Another source of the same guru, indexed first: a failure must not touch it."""
    response = admin_client.post(
        SOURCES,
        {"type": "text", "title": "Watering holes", "content": BYSTANDER_TEXT},
        format="json",
    )
    detail = detail_of(admin_client, response.json()["id"])
    assert detail["status"] == "SUCCESS", detail
    assert detail["chunk_count"] > 0
    return int(detail["id"])


@pytest.fixture
def videos() -> dict[str, FakeVideo]:
    """The far end's videos; a test may change one (captions turned off since the last run)."""
    return dict(default_videos())


@pytest.fixture
def youtube(videos: dict[str, FakeVideo]) -> Iterator[FakeYouTubeServer]:
    with FakeYouTubeServer(videos=videos) as server:
        yield server


def upload(client: APIClient, name: str, data: bytes, *, private: bool = False) -> Any:
    file = io.BytesIO(data)
    file.name = name
    return client.post(SOURCES, {"file": file, "private": private}, format="multipart")


def add(client: APIClient, **data: Any) -> Any:
    return client.post(SOURCES, data, format="json")


def detail_of(client: APIClient, source_id: int) -> dict[str, Any]:
    response = client.get(f"{SOURCES}{source_id}/")
    assert response.status_code == 200
    return dict(response.json())


def reindex(client: APIClient, source_id: int) -> dict[str, Any]:
    assert client.post(f"{SOURCES}{source_id}/reindex/").status_code == 202
    return detail_of(client, source_id)


def cited_links(client: APIClient, question: str) -> list[str]:
    """The links an answer to `question` cites (the admin answer API, fast mode)."""
    response = client.post(
        f"/api/gurus/{SLUG}/answer/", {"question": question, "mode": "fast"}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["refused"] is False, body
    return [reference["link"] for reference in body["references"]]


def chunks_of(guru: Guru, source_id: int) -> list[SearchHit]:
    """Every chunk the source has in the guru's collection."""
    store = get_vector_store()
    total = store.count(guru.collection_name, source_id=source_id)
    if total == 0:
        return []
    hits = store.search_dense(
        guru.collection_name,
        get_embedder().embed_query("animal widget video"),
        limit=total,
        where=SearchFilter(source_ids=[source_id]),
    )
    assert len(hits) == total
    return hits


def best_bm25_hit(guru: Guru, source_id: int, words: str) -> SearchHit:
    hits = get_vector_store().search_bm25(
        guru.collection_name, words, limit=3, where=SearchFilter(source_ids=[source_id])
    )
    assert hits, f"no chunk of source {source_id} matches {words!r}"
    return hits[0]


def snapshot(guru: Guru, source_id: int) -> dict[str, str]:
    return {hit.chunk_hash: hit.text for hit in chunks_of(guru, source_id)}


def media_files() -> set[Path]:
    return {path for path in Path(django_settings.MEDIA_ROOT).rglob("*") if path.is_file()}


def assert_failed_for_a_reason(detail: Mapping[str, Any], *phrases: str) -> None:
    """FAILED, with a short reason an admin can act on and nothing of the machinery in it."""
    assert detail["status"] == "FAILED", detail
    reason = str(detail["user_error"])
    assert reason, detail
    assert not TECHNICAL_WORDS.search(reason), reason
    assert len(reason) < 200, reason
    for phrase in phrases:
        assert phrase.casefold() in reason.casefold(), reason


def source_process_now(*, source_id: int, token: str) -> ProcessOutcome:
    """What a worker's task runs, in this process, on the configured embedder and store."""
    return source_process(
        source_id=source_id, token=token, embedder=get_embedder(), store=get_vector_store()
    )
