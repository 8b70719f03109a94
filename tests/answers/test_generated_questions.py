"""The likely questions of a source: made by the loopback LLM once the source is indexed,
answered through the engine and published as question pages; made again when the source
changes, gone with it, never a repeat of an answered question, never past the guru's limit."""

import pytest
from openguru.answers.channels.generated import source_questions_generate
from openguru.answers.engine.providers import providers_for
from openguru.answers.models import Question
from openguru.sources.models import DataSource
from openguru.sources.services import source_create, source_delete, source_reindex

from tests.answers.conftest import python_guru  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

VENV_QUESTIONS = [
    "How do I use virtual environments in a project?",
    "When should I reach for virtual environments?",
]


def generated(source: DataSource) -> list[str]:
    rows = Question.objects.filter(generated_from=source).order_by("pk")
    return [q.user_question for q in rows]


@pytest.fixture
def venv_source(python_guru) -> DataSource:  # noqa: F811
    return DataSource.objects.get(guru=python_guru, title="Virtual environments")


def test_a_sources_questions_are_answered_and_published_as_pages(
    anon_client,
    python_guru,  # noqa: F811
    venv_source,
    llm_server,
    settings,
):
    settings.GENERATED_QUESTIONS_PER_SOURCE = 5
    made = source_questions_generate(source=venv_source, providers=providers_for(python_guru))

    # The repeat in other case and the line that is not a question are dropped.
    assert [q.user_question for q in made] == VENV_QUESTIONS
    for question in made:
        assert question.source == Question.Source.GENERATED
        assert question.binge is None and question.content
        page = anon_client.get(f"/api/gurus/python/questions/{question.slug}/")
        assert page.status_code == 200, page.content
    listed = anon_client.get("/api/sitemap/questions/").json()
    assert {q.slug for q in made} <= {row["slug"] for row in listed}


def test_an_answered_question_is_not_made_again_and_the_guru_has_a_limit(
    python_guru,  # noqa: F811
    venv_source,
    llm_server,
    settings,
):
    settings.GENERATED_QUESTIONS_PER_SOURCE = 5
    providers = providers_for(python_guru)
    asked = Question.objects.create(
        guru=python_guru,
        slug="asked",
        question=VENV_QUESTIONS[0],
        user_question=VENV_QUESTIONS[0],
        content="Activate it first.",
    )
    made = source_questions_generate(source=venv_source, providers=providers)
    assert [q.user_question for q in made] == VENV_QUESTIONS[1:]
    assert Question.objects.filter(user_question=VENV_QUESTIONS[0]).get() == asked

    settings.GENERATED_QUESTIONS_PER_GURU = 2
    other = DataSource.objects.get(guru=python_guru, title="Exceptions")
    assert len(source_questions_generate(source=other, providers=providers)) == 1
    assert Question.objects.filter(source=Question.Source.GENERATED).count() == 2


def test_without_an_llm_none_are_made(python_guru, venv_source, settings):  # noqa: F811
    settings.GENERATED_QUESTIONS_PER_SOURCE = 5
    assert source_questions_generate(source=venv_source, providers=providers_for(python_guru)) == []


def test_indexing_makes_them_a_change_makes_them_again_and_deleting_drops_them(
    python_guru,  # noqa: F811
    llm_server,
    settings,
):
    settings.GENERATED_QUESTIONS_PER_SOURCE = 5
    source = source_create(
        guru=python_guru,
        type="text",
        title="Decorators",
        content="# Decorators\n\nA decorator wraps a function: put @name above its def line.\n",
    )
    first = generated(source)
    assert first == [
        "How do I use decorators in a project?",
        "When should I reach for decorators?",
    ]
    old_ids = set(Question.objects.filter(generated_from=source).values_list("pk", flat=True))

    source.title = "Function decorators"
    source.content = "# Function decorators\n\nA decorator wraps a function with @name.\n"
    source.save()
    source_reindex(source=source)
    assert generated(source) == [
        "How do I use function decorators in a project?",
        "When should I reach for function decorators?",
    ]
    assert not Question.objects.filter(pk__in=old_ids).exists()

    source_delete(source=source, store=providers_for(python_guru).store)
    assert not Question.objects.filter(source=Question.Source.GENERATED).exists()


def test_a_failed_llm_keeps_the_questions_a_source_had(
    python_guru,  # noqa: F811
    venv_source,
    llm_server,
    settings,
):
    settings.GENERATED_QUESTIONS_PER_SOURCE = 5
    providers = providers_for(python_guru)
    source_questions_generate(source=venv_source, providers=providers)
    before = set(Question.objects.filter(generated_from=venv_source).values_list("pk", flat=True))
    assert len(before) == 2

    llm_server.fail_all(500)
    assert source_questions_generate(source=venv_source, providers=providers) == []
    kept = set(Question.objects.filter(generated_from=venv_source).values_list("pk", flat=True))
    assert kept == before

    # Made again once the LLM answers: the same questions, now answered anew.
    llm_server.fail_all(None)
    again = source_questions_generate(source=venv_source, providers=providers)
    assert [q.user_question for q in again] == VENV_QUESTIONS
    assert not Question.objects.filter(pk__in=before).exists()
