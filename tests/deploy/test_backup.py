"""Backups: a guru exported to a zip file, deleted with its collection, and imported again
answers the same questions with the same citations (extractive answers, no LLM), on
PostgreSQL and the Milvus Lite server."""

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.core.management.base import CommandError
from openguru.answers import groundwork
from openguru.answers.models import Binge, OutOfContextQuestion, Question, Vote
from openguru.answers.services import binge_create, vote_record
from openguru.core.platform_settings import platform_settings_update
from openguru.gurus.models import Guru
from openguru.gurus.services import guru_create, guru_delete
from openguru.integrations.models import WidgetId
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource
from openguru.sources.services import source_create
from openguru.sources.tasks import source_process_task
from rest_framework.test import APIClient

from tests.answers.conftest import PAGES, page_url
from tests.answers.test_answer_engine import IN_SCOPE, OUT_OF_SCOPE
from tests.sources.ingestion_helpers import ANIMALS, animal_page, make_pdf

pytestmark = pytest.mark.django_db(transaction=True)

SLUG = "backed-up"
PDF_QUESTION = "Where does the cheetah sleep, according to the rangers?"
QUESTIONS = (IN_SCOPE, PDF_QUESTION)


def ask(question: str) -> dict[str, Any]:
    response = APIClient().post(f"/api/gurus/{SLUG}/answer/", {"question": question}, format="json")
    assert response.status_code == 200, response.content
    return dict(response.json())


def build_guru() -> Guru:
    guru = guru_create(slug=SLUG, name="Backed up")
    for title, text in PAGES.items():
        source_create(guru=guru, type="text", url=page_url(title), title=title, content=text)
    pdf = DataSource(guru=guru, type="pdf", url="pdf://upload/guide.pdf", title="Guide")
    pages = [animal_page(n, animal) for n, animal in enumerate(ANIMALS, start=1)]
    pdf.file.save("guide.pdf", ContentFile(make_pdf(pages)), save=False)
    pdf.url = pdf.file.url
    pdf.save()
    source_process_task.delay(pdf.pk)
    empty = DataSource.objects.create(guru=guru, type="text", url="text://empty", content="")
    source_process_task.delay(empty.pk)  # fails: nothing to index
    return guru


def snapshot(guru: Guru) -> dict[str, Any]:
    store = get_vector_store()
    sources = DataSource.objects.filter(guru=guru).order_by("url")
    return {
        "sources": [(s.url, s.type, s.status, s.chunk_count) for s in sources],
        "chunks": {
            s.url: sorted(
                h.text for h in store.source_chunks(guru.collection_name, source_id=s.pk, limit=999)
            )
            for s in sources
        },
        "pdf": next(s.file.read() for s in sources if s.file),
        "questions": sorted(
            (q.slug, q.content, str(q.references), q.created_at, q.binge_id is None)
            for q in Question.objects.filter(guru=guru)
        ),
        "cited": sorted(
            (q.slug, tuple(sorted(q.cited_sources.values_list("url", flat=True))))
            for q in Question.objects.filter(guru=guru)
        ),
        "binges": [
            (str(b.pk), b.root_question.slug if b.root_question else None, b.owner)
            for b in Binge.objects.filter(guru=guru).order_by("pk")
        ],
        "votes": sorted((v.question.slug, v.vote_type, v.voter) for v in Vote.objects.all()),
        "refused": sorted(OutOfContextQuestion.objects.values_list("user_question", flat=True)),
        "widgets": sorted(WidgetId.objects.values_list("key", "domain_pattern")),
    }


def test_an_exported_guru_is_restored_and_answers_with_the_same_citations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guru = build_guru()
    answers = {question: ask(question) for question in QUESTIONS}
    assert all(not a["refused"] and a["references"] for a in answers.values()), answers
    assert ask(OUT_OF_SCOPE)["refused"] is True
    first = Question.objects.get(guru=guru, slug=answers[IN_SCOPE]["slug"])
    binge_create(guru=guru, root_question=first, owner=User.objects.create(username="alice"))
    vote_record(question=first, voter="voter-hash", vote_type="upvote", feedback="clear")
    WidgetId.objects.create(guru=guru, key="wid-backup", domain_pattern="docs.example.org")
    before = snapshot(guru)
    assert before["chunks"] and all(before["chunks"][url] for url, *_ in before["sources"][:-1])

    archive = tmp_path / "guru.zip"
    call_command("guru_export", SLUG, "--out", str(archive))
    collection = guru.collection_name
    pdf_name = DataSource.objects.get(guru=guru, type="pdf").file.name
    guru_delete(guru=guru)
    assert not get_vector_store().has_collection(collection)
    assert not Question.objects.exists() and not Binge.objects.exists()
    assert not DataSource.objects.filter(file=pdf_name).exists()

    call_command("guru_import", str(archive))
    restored = Guru.objects.get(slug=SLUG)
    assert snapshot(restored) == before

    for question, original in answers.items():
        replayed = ask(question)  # the restored answer, from the question cache
        assert (replayed["content"], replayed["references"]) == (
            original["content"],
            original["references"],
        )
    platform_settings_update(data={"answer_cache_enabled": False})
    monkeypatch.setattr(groundwork, "_settings_cache", None)  # read the change now
    for question, original in answers.items():
        fresh = ask(question)  # retrieved again from the re-embedded collection
        assert fresh["references"] == original["references"]
        assert fresh["content"] == original["content"]


def test_a_guru_cannot_be_imported_over_an_existing_one(tmp_path: Path) -> None:
    guru_create(slug=SLUG, name="Backed up")
    archive = tmp_path / "guru.zip"
    call_command("guru_export", SLUG, "--out", str(archive))
    with pytest.raises(CommandError, match="already exists"):
        call_command("guru_import", str(archive))
    call_command("guru_import", str(archive), "--slug", "backed-up-copy")
    assert Guru.objects.filter(slug="backed-up-copy").exists()
