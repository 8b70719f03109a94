from django.db.models import Case, Q, QuerySet, When
from django.utils.text import slugify

from openguru.answers.models import Binge, Question
from openguru.answers.question_index import question_index_nearest
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru

NEAREST_CANDIDATES = 5  # hits checked against the database: a deleted row doesn't hide the next


def question_slug_for(text: str) -> str:
    return slugify(text)[:80].strip("-") or "question"


def question_get(*, guru: Guru, slug: str, binge: Binge | None = None) -> Question:
    question = Question.objects.filter(guru=guru, slug=slug, binge=binge).first()
    if question is None:
        raise DomainError(ErrorCode.QUESTION_NOT_FOUND, f"No question '{slug}' in this guru.")
    return question


def _answered(guru: Guru) -> QuerySet[Question]:
    """Answers that may be reused: never those inside a binge (they depend on the conversation)."""
    return Question.objects.filter(guru=guru, binge__isnull=True).exclude(content="")


def question_find_same(*, guru: Guru, text: str) -> Question | None:
    """An earlier answer to this exact question (same slug, else same words), in one query:
    it runs before every answer."""
    slug = question_slug_for(text)
    return (
        _answered(guru)
        .filter(Q(slug=slug) | Q(user_question__iexact=text.strip()))
        .annotate(same_slug=Case(When(slug=slug, then=1), default=0))
        .order_by("-same_slug", "-created_at")
        .first()
    )


def question_find_similar(
    *, guru: Guru, vector: list[float], min_similarity: float
) -> Question | None:
    """The nearest earlier question whose embedding is at least `min_similarity` alike: one
    search in the guru's question index, then the best hit whose row still qualifies."""
    if not vector:
        return None
    answered = _answered(guru)
    nearest = question_index_nearest(
        guru=guru, answered=answered, vector=vector, limit=NEAREST_CANDIDATES
    )
    ids = [question_id for question_id, score in nearest if score >= min_similarity]
    if not ids:
        return None
    found = answered.in_bulk(ids)
    return next((found[question_id] for question_id in ids if question_id in found), None)


def question_reusable(*, guru: Guru) -> QuerySet[Question]:
    """The questions whose answers may be given again (the near-duplicate index is built from
    them)."""
    return _answered(guru)


def binge_history(*, binge: Binge, limit: int = 5) -> list[tuple[str, str]]:
    """(question, answer) pairs of a binge, oldest first, starting with its root question."""
    recent = list(Question.objects.filter(binge=binge).order_by("-created_at")[:limit])
    questions = [*([binge.root_question] if binge.root_question else []), *reversed(recent)]
    return [(q.question, q.content) for q in questions[-limit:]]
