"""Django tells the UI's server which cached question pages to drop (`core/site_pages.py`), once
the change is committed, with the shared secret: a stored, regenerated or re-checked answer names
its page (and a follow-up its parent's), a guru whose page fields changed names the guru, and
changes no page shows send nothing. A UI that does not answer costs a log line, not the write."""

import logging
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from openguru.answers.models import Binge, Question
from openguru.answers.quality.staleness import questions_mark_stale
from openguru.answers.services import (
    AnswerRecord,
    question_follow_ups_save,
    question_save,
    vote_record,
)
from openguru.gurus.models import Guru
from openguru.gurus.services import guru_update

from tests.fakes.next_revalidate import NextRevalidateServer

pytestmark = pytest.mark.django_db

SECRET = "shared-with-the-ui"


@pytest.fixture
def ui(settings: Any) -> Iterator[NextRevalidateServer]:
    with NextRevalidateServer() as server:
        settings.UI_INTERNAL_URL = server.origin
        settings.UI_REVALIDATE_SECRET = SECRET
        yield server


@pytest.fixture
def guru() -> Guru:
    return Guru.objects.create(
        slug="py",
        name="Py",
        collection_name="guru_py",
        embedding_model="fake",
        embedding_dimension=8,
    )


def record(content: str, slug: str = "how-to-open-a-file") -> AnswerRecord:
    return AnswerRecord(
        slug=slug,
        question="How to open a file?",
        user_question="how to open a file",
        content=content,
        references=[],
        trust_score=0.9,
        source=Question.Source.USER,
        extractive=True,
    )


def sent(*, paths: Sequence[str] = (), gurus: Sequence[str] = ()) -> dict[str, Any]:
    """One request as the UI's route expects it."""
    return {"paths": list(paths), "gurus": list(gurus), "authorization": f"Bearer {SECRET}"}


def test_a_stored_and_a_regenerated_answer_drop_their_page(
    ui, guru, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        question = question_save(guru=guru, record=record("Use open()."))
        assert ui.posted() == []  # not before the commit
    with django_capture_on_commit_callbacks(execute=True):
        question_save(guru=guru, record=record("Use pathlib."), existing=question)
    expected = sent(paths=["/g/py/how-to-open-a-file"])
    assert ui.posted() == [expected, expected]


def test_a_follow_up_drops_its_parents_page_not_its_own(
    ui, guru, django_capture_on_commit_callbacks
):
    root = Question.objects.create(guru=guru, slug="root", question="R", user_question="r")
    binge = Binge.objects.create(guru=guru, root_question=root)
    with django_capture_on_commit_callbacks(execute=True):
        question_save(guru=guru, record=record("More.", "more"), binge=binge, parent=root)
    assert ui.posted() == [sent(paths=["/g/py/root"])]


def test_a_guru_drops_its_pages_when_what_they_show_changes(
    ui, guru, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        guru_update(guru=guru, data={"trust_threshold": 0.4, "name": "Py"})  # name unchanged
    assert ui.posted() == []
    with django_capture_on_commit_callbacks(execute=True):
        guru_update(guru=guru, data={"visibility": "private"})
    assert ui.posted() == [sent(gurus=["py"])]


def test_changes_no_page_shows_send_nothing(ui, guru, django_capture_on_commit_callbacks):
    question = Question.objects.create(guru=guru, slug="q", question="Q", user_question="q")
    with django_capture_on_commit_callbacks(execute=True):
        vote_record(question=question, voter="someone", vote_type="up")
        question_follow_ups_save(question=question, examples=["And then?"])
        questions_mark_stale(source_ids=[])  # cites nothing
    assert ui.posted() == []


def test_without_a_secret_nothing_is_sent(ui, guru, settings, django_capture_on_commit_callbacks):
    settings.UI_REVALIDATE_SECRET = ""
    with django_capture_on_commit_callbacks(execute=True):
        question_save(guru=guru, record=record("Use open()."))
    assert ui.posted() == []


def test_a_ui_that_fails_is_logged_and_the_answer_stands(
    ui, guru, caplog, django_capture_on_commit_callbacks
):
    ui.fail_all(503)
    with caplog.at_level(logging.WARNING), django_capture_on_commit_callbacks(execute=True):
        question = question_save(guru=guru, record=record("Use open()."))
    assert Question.objects.get(pk=question.pk).content == "Use open()."
    assert "did not drop 1 cached pages" in caplog.text
