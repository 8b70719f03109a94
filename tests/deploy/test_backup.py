"""Backups: a guru exported to a zip file, deleted with its collection, and imported again
answers the same questions with the same citations (extractive answers, no LLM), on
PostgreSQL and the Milvus Lite server; and so does a whole deployment that backend/scripts/
backup.sh saved and restore.sh put back into a new database, media folder and collection."""

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, connections
from openguru.answers.engine import groundwork
from openguru.answers.models import Binge, OutOfContextQuestion, Question, Vote
from openguru.answers.services import binge_create, vote_record
from openguru.core.platform_settings import platform_settings_update
from openguru.gurus.models import Guru
from openguru.gurus.services import guru_delete
from openguru.integrations.models import WidgetId
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource
from openguru.sources.services import source_create
from openguru.sources.tasks import source_process_task
from rest_framework.test import APIClient

from tests.answers.conftest import PAGES, page_url
from tests.answers.test_answer_engine import IN_SCOPE, OUT_OF_SCOPE
from tests.gurus.helpers import guru_make
from tests.integration.worker import BACKEND, REDIS_BROKER, worker_env
from tests.integration.worker import test_database_url as database_url
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
    guru = guru_make(slug=SLUG, name="Backed up")
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


def assert_same_answers(
    answers: dict[str, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
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
    guru_delete(guru=guru, store=get_vector_store())
    assert not get_vector_store().has_collection(collection)
    assert not Question.objects.exists() and not Binge.objects.exists()
    assert not DataSource.objects.filter(file=pdf_name).exists()

    call_command("guru_import", str(archive))
    restored = Guru.objects.get(slug=SLUG)
    assert snapshot(restored) == before
    assert_same_answers(answers, monkeypatch)


def test_a_guru_cannot_be_imported_over_an_existing_one(tmp_path: Path) -> None:
    guru_make(slug=SLUG, name="Backed up")
    archive = tmp_path / "guru.zip"
    call_command("guru_export", SLUG, "--out", str(archive))
    with pytest.raises(CommandError, match="already exists"):
        call_command("guru_import", str(archive))
    call_command("guru_import", str(archive), "--slug", "backed-up-copy")
    assert Guru.objects.filter(slug="backed-up-copy").exists()


def run_script(name: str, folder: Path, **env: str) -> str:
    result = subprocess.run(
        ["bash", str(BACKEND / "scripts" / name), str(folder)],
        env=worker_env(REDIS_BROKER, PYTHON=sys.executable, **env),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@contextmanager
def django_on_database(name: str) -> Iterator[None]:
    """This process's connections (every thread's, through the shared pool) on another
    database of the same server for a while."""
    settings_dict = connection.settings_dict  # the one dict every thread's connection reads
    original = settings_dict["NAME"]

    def switch(to: str) -> None:
        connections.close_all()
        connection.close_pool()
        settings_dict["NAME"] = to

    switch(name)
    try:
        yield
    finally:
        switch(original)


@pytest.mark.slow  # three manage.py runs, pg_dump and pg_restore
def test_the_backup_scripts_restore_a_deployment_into_a_new_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    guru = build_guru()
    answers = {question: ask(question) for question in QUESTIONS}
    assert all(not a["refused"] and a["references"] for a in answers.values()), answers
    assert ask(OUT_OF_SCOPE)["refused"] is True
    first = Question.objects.get(guru=guru, slug=answers[IN_SCOPE]["slug"])
    vote_record(question=first, voter="voter-hash", vote_type="upvote", feedback="clear")
    WidgetId.objects.create(guru=guru, key="wid-script", domain_pattern="docs.example.org")
    before = snapshot(guru)

    backup = tmp_path / "backup"
    run_script("backup.sh", backup)
    assert sorted(p.name for p in backup.iterdir()) == ["gurus", "media.tar.gz", "openguru.dump"]
    assert [p.name for p in (backup / "gurus").iterdir()] == [f"{SLUG}.zip"]

    # Everything is lost: the collection, the uploads; the database is a new, empty one.
    get_vector_store().drop_collection(guru.collection_name)
    fresh = f"{connection.settings_dict['NAME']}_restored"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)')
        cursor.execute(f'CREATE DATABASE "{fresh}"')
    media = tmp_path / "restored-media"
    restored_url = f"{database_url().rsplit('/', 1)[0]}/{fresh}"
    try:
        run_script("restore.sh", backup, DATABASE_URL=restored_url, MEDIA_ROOT=str(media))
        settings.MEDIA_ROOT = str(media)
        with django_on_database(fresh):
            restored = Guru.objects.get(slug=SLUG)
            assert snapshot(restored) == before
            assert_same_answers(answers, monkeypatch)
    finally:
        get_vector_store().drop_collection(guru.collection_name)
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)')


def test_restoring_vectors_needs_the_guru_restored_first(tmp_path: Path) -> None:
    guru_make(slug=SLUG, name="Backed up")
    archive = tmp_path / "guru.zip"
    call_command("guru_export", SLUG, "--out", str(archive))
    guru_delete(guru=Guru.objects.get(slug=SLUG), store=get_vector_store())
    with pytest.raises(CommandError, match="No guru named 'backed-up'"):
        call_command("guru_import", str(archive), "--vectors-only")
