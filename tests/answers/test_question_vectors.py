"""The near-duplicate lookup's in-memory copy of saved question vectors, on the real database:
it must see every change a fresh read would, and read only what changed."""

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openguru.answers import question_vectors
from openguru.answers.models import Question
from openguru.answers.question_vectors import forget_question_vectors
from openguru.answers.selectors import question_find_similar
from openguru.gurus.models import Guru

pytestmark = pytest.mark.django_db(transaction=True)

DIMENSION = 8
WORDING = "How do I walk a directory tree?"


@pytest.fixture(autouse=True)
def fresh_copy():
    forget_question_vectors()
    yield
    forget_question_vectors()


@pytest.fixture
def guru() -> Guru:
    return Guru.objects.create(
        slug="g", name="G", collection_name="guru_g", embedding_dimension=DIMENSION
    )


def axis(i: int, size: int = DIMENSION) -> list[float]:
    vector = [0.0] * size
    vector[i] = 1.0
    return vector


def save(guru: Guru, slug: str, vector: list[float]) -> Question:
    return Question.objects.create(
        guru=guru,
        slug=slug,
        question=slug,
        user_question=WORDING,  # the vectors differ, the words never: only the copy is tested
        content=f"answer to {slug}",
        vector=np.asarray(vector, dtype="<f4").tobytes(),
    )


def nearest(guru: Guru, vector: list[float]) -> Question | None:
    return question_find_similar(guru=guru, text=WORDING, vector=vector, min_similarity=0.9)


def test_a_question_saved_after_the_copy_is_read_is_found(guru):
    save(guru, "first", axis(0))
    assert nearest(guru, axis(1)) is None  # the copy is read here
    second = save(guru, "second", axis(1))
    assert nearest(guru, axis(1)) == second
    assert nearest(guru, axis(0)).slug == "first"


def test_an_unchanged_guru_costs_one_aggregate_query(guru):
    save(guru, "first", axis(0))
    nearest(guru, axis(0))
    with CaptureQueriesContext(connection) as queries:
        assert nearest(guru, [0.1, 0.99, 0, 0, 0, 0, 0, 0]) is None
    assert len(queries) == 1
    assert '"vector"' not in queries[0]["sql"].split("FROM")[0]  # no vectors were read


def test_only_rows_saved_since_are_read(guru):
    save(guru, "first", axis(0))
    nearest(guru, axis(0))
    save(guru, "second", axis(1))
    with CaptureQueriesContext(connection) as queries:
        assert nearest(guru, axis(1)).slug == "second"
    scans = [q["sql"] for q in queries if 'AS "vector"' in q["sql"]]  # not the winner's fetch
    assert len(scans) == 1 and '"updated_at" >' in scans[0]


def test_a_deleted_question_is_not_returned(guru):
    doomed = save(guru, "doomed", axis(2))
    assert nearest(guru, axis(2)) == doomed
    doomed.delete()
    assert nearest(guru, axis(2)) is None
    replacement = save(guru, "replacement", axis(2))
    assert nearest(guru, axis(2)) == replacement


def test_cleared_and_changed_vectors_are_seen(guru):
    question = save(guru, "q", axis(3))
    assert nearest(guru, axis(3)) == question
    Question.objects.filter(guru=guru).update(vector=None)  # what a re-embed does
    assert nearest(guru, axis(3)) is None
    question.refresh_from_db()
    question.vector = np.asarray(axis(4), dtype="<f4").tobytes()
    question.save()  # a regenerated answer
    assert nearest(guru, axis(4)) == question
    assert nearest(guru, axis(3)) is None


def test_vectors_of_another_size_are_never_compared(guru):
    save(guru, "small", axis(0, size=4))
    assert nearest(guru, axis(0)) is None
    big = save(guru, "big", axis(0))
    assert nearest(guru, axis(0)) == big
    assert nearest(guru, axis(0, size=4)).slug == "small"


def test_each_guru_has_its_own_copy(guru):
    other = Guru.objects.create(
        slug="o", name="O", collection_name="guru_o", embedding_dimension=DIMENSION
    )
    mine = save(guru, "mine", axis(5))
    assert nearest(guru, axis(5)) == mine
    assert nearest(other, axis(5)) is None


def make_guru(slug: str) -> Guru:
    return Guru.objects.create(
        slug=slug, name=slug.upper(), collection_name=f"guru_{slug}", embedding_dimension=DIMENSION
    )


def vector_reads(guru: Guru) -> int:
    """How many times a lookup that finds nothing reads saved vectors from the database."""
    with CaptureQueriesContext(connection) as queries:
        assert nearest(guru, axis(7)) is None
    return sum(1 for q in queries if 'AS "vector"' in q["sql"])


def test_the_least_recently_asked_guru_loses_its_copy_past_the_budget(monkeypatch):
    one_copy = DIMENSION * 4  # one saved vector of float32
    monkeypatch.setattr(question_vectors, "MEMORY_BUDGET_BYTES", 2 * one_copy)
    a, b, c = make_guru("a"), make_guru("b"), make_guru("c")
    for guru in (a, b, c):
        save(guru, f"q-{guru.slug}", axis(0))
    assert [vector_reads(g) for g in (a, b, a)] == [1, 1, 0]  # both fit
    assert vector_reads(c) == 1  # over budget: b, asked least recently, is dropped
    assert [vector_reads(g) for g in (a, c, b)] == [0, 0, 1]


def test_the_guru_being_asked_keeps_a_copy_larger_than_the_budget(guru, monkeypatch):
    monkeypatch.setattr(question_vectors, "MEMORY_BUDGET_BYTES", 1)
    save(guru, "first", axis(0))
    save(guru, "second", axis(1))
    assert vector_reads(guru) == 1
    assert vector_reads(guru) == 0
