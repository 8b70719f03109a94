"""A question asked again without the answer cache is saved under the next free slug, and
finding it costs one query however often it was asked."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openguru.answers.models import Question
from openguru.answers.selectors import question_find_same
from openguru.answers.services import AnswerRecord, question_save
from openguru.gurus.models import Guru

pytestmark = pytest.mark.django_db

WORDING = "How do I open a file?"


@pytest.fixture
def guru() -> Guru:
    return Guru.objects.create(slug="g", name="G", collection_name="guru_g", embedding_dimension=8)


def record(content: str) -> AnswerRecord:
    return AnswerRecord(
        slug="how-do-i-open-a-file",
        question=WORDING,
        user_question=WORDING,
        content=content,
        references=[],
        trust_score=0.9,
        source=Question.Source.USER,
        extractive=True,
    )


def slug_queries(guru: Guru, content: str) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as queries:
        saved = question_save(guru=guru, record=record(content))
    looked_up = [q for q in queries.captured_queries if "LIKE" in q["sql"] or "GLOB" in q["sql"]]
    return saved.slug, len(looked_up)


def test_repeats_take_the_next_free_slug_in_one_query(guru):
    slugs = [slug_queries(guru, f"answer {n}") for n in range(5)]
    assert [slug for slug, _ in slugs] == [
        "how-do-i-open-a-file",
        *(f"how-do-i-open-a-file-{n}" for n in range(2, 6)),
    ]
    assert all(count == 1 for _, count in slugs)


def test_the_same_question_is_found_by_its_slug_or_its_words(guru):
    first = question_save(guru=guru, record=record("first"))
    question_save(guru=guru, record=record("second"))
    assert question_find_same(guru=guru, text=WORDING) == first  # the slug itself wins
    assert question_find_same(guru=guru, text="how do i OPEN a file?") == first
    assert question_find_same(guru=guru, text=WORDING, version="4.2") is None
    assert question_find_same(guru=guru, text="How do I close a file?") is None
