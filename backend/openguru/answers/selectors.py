import re

import numpy as np
from django.utils.text import slugify

from openguru.answers.models import Binge, Question
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru

_SPACES = re.compile(r"\s+")


def normalize_question(text: str) -> str:
    return _SPACES.sub(" ", text.strip().lower()).rstrip("?!. ")


def question_slug_for(text: str) -> str:
    return slugify(text)[:80].strip("-") or "question"


def question_get(*, guru: Guru, slug: str, binge: Binge | None = None) -> Question:
    question = Question.objects.filter(guru=guru, slug=slug, binge=binge).first()
    if question is None:
        raise DomainError(ErrorCode.QUESTION_NOT_FOUND, f"No question '{slug}' in this guru.")
    return question


def question_find_cached(
    *, guru: Guru, text: str, vector: list[float] | None, min_similarity: float
) -> Question | None:
    """An earlier answer to the same question: same slug or text, else the nearest question
    whose embedding is at least `min_similarity` alike. Binge questions are never reused."""
    answered = Question.objects.filter(guru=guru, binge__isnull=True).exclude(content="")
    normalized = normalize_question(text)
    for question in answered.filter(slug=question_slug_for(text)):
        return question
    for question in answered.filter(user_question__iexact=text.strip()):
        return question
    if vector is None:
        return None
    candidates = [
        (pk, bytes(vector), text)
        for pk, vector, text in answered.exclude(vector=None).values_list(
            "pk", "vector", "user_question"
        )
        if vector is not None
    ]
    if not candidates:
        return None
    matrix = np.vstack([np.frombuffer(v, dtype="<f4") for _, v, _ in candidates])
    query = np.asarray(vector, dtype="<f4")
    norms = np.linalg.norm(matrix, axis=1) * (np.linalg.norm(query) or 1.0)
    similarities = matrix @ query / np.where(norms == 0, 1.0, norms)
    best = int(np.argmax(similarities))
    if (
        similarities[best] >= min_similarity
        or normalize_question(candidates[best][2]) == normalized
    ):
        return answered.filter(pk=candidates[best][0]).first()
    return None


def binge_history(*, binge: Binge, limit: int = 5) -> list[tuple[str, str]]:
    """(question, answer) pairs of a binge, oldest first, starting with its root question."""
    recent = list(Question.objects.filter(binge=binge).order_by("-created_at")[:limit])
    questions = [*([binge.root_question] if binge.root_question else []), *reversed(recent)]
    return [(q.question, q.content) for q in questions[-limit:]]
