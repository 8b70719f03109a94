from uuid import UUID

import numpy as np
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Count, QuerySet
from django.utils.text import slugify

from openguru.answers.models import Binge, OutOfContextQuestion, Question, Vote
from openguru.answers.question_vectors import similar_vectors
from openguru.answers.wording import same_question
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.models import partial_instance
from openguru.core.site_pages import question_page_path
from openguru.gurus.models import Guru


def question_slug_for(text: str) -> str:
    return slugify(text)[:80].strip("-") or "question"


def question_get(*, guru: Guru, slug: str, binge: Binge | None = None) -> Question:
    question = Question.objects.filter(guru=guru, slug=slug, binge=binge).first()
    if question is None:
        raise DomainError(ErrorCode.QUESTION_NOT_FOUND, f"No question '{slug}' in this guru.")
    return question


def _answered(guru: Guru, version: str | None = None) -> QuerySet[Question]:
    """Answers that may be reused: never those inside a binge (they depend on the conversation),
    and, given a documentation version, only those answered from it."""
    answered = Question.objects.filter(guru=guru, binge__isnull=True).exclude(content="")
    return answered if version is None else answered.filter(version=version)


SAME_SLUG_CANDIDATES = 5  # earlier questions with this slug or text whose words are compared


def question_find_same(*, guru: Guru, text: str, version: str | None = None) -> Question | None:
    """An earlier answer to this exact question (same slug, else same words), in one query:
    it runs before every answer. A slug keeps neither case, punctuation nor anything past 80
    characters ("…functions in C?" and "…in C++?" share one), so the earlier question must
    also have the same wording (`wording.same_question`).

    Raw SQL, as `_answered` would filter: a cached answer is this one read, and the ORM took
    longer to build the query (its CASE ordering) than the database to run it."""
    slug = question_slug_for(text)
    table = connection.ops.quote_name(Question._meta.db_table)
    sql = (
        f"SELECT * FROM {table} WHERE guru_id = %s AND binge_id IS NULL AND content <> '' "  # noqa: S608
        "AND (slug = %s OR LOWER(user_question) = LOWER(%s))"
    )
    params: list[object] = [guru.pk, slug, text.strip()]
    if version is not None:
        sql += " AND version = %s"
        params.append(version)
    sql += " ORDER BY CASE WHEN slug = %s THEN 1 ELSE 0 END DESC, created_at DESC LIMIT %s"
    params += [slug, SAME_SLUG_CANDIDATES]
    candidates = Question.objects.raw(sql, params)
    return next((q for q in candidates if same_question(text, q.user_question)), None)


MAX_NEAR_DUPLICATES = 5  # the nearest questions above the similarity floor whose words are read


def question_find_similar(
    *,
    guru: Guru,
    text: str,
    vector: list[float],
    min_similarity: float,
    version: str | None = None,
) -> Question | None:
    """The nearest earlier question whose embedding is at least `min_similarity` alike and which
    asks the same thing in other words (`wording.same_question`: similar vectors alone also
    match a question's reverse)."""
    answered = _answered(guru)  # one in-memory copy per guru, whatever the version
    pks, unit_rows = similar_vectors(guru=guru, questions=answered, dimension=len(vector))
    if not pks:
        return None
    query = np.asarray(vector, dtype="<f4")
    similarities = unit_rows @ query / (np.linalg.norm(query) or 1.0)
    close = np.flatnonzero(similarities >= min_similarity)
    if not close.size:
        return None
    nearest = [pks[i] for i in close[np.argsort(-similarities[close])][:MAX_NEAR_DUPLICATES]]
    # Fetched through the same filter: the in-memory copy may be a moment behind.
    fetched = _answered(guru, version=version).in_bulk(nearest)
    return next(
        (
            fetched[pk]
            for pk in nearest
            if pk in fetched and same_question(text, fetched[pk].user_question)
        ),
        None,
    )


def question_find_in_binge(*, binge: Binge, text: str) -> Question | None:
    """The latest answer to `text` in a follow-up session (its root included)."""
    root = binge.root_question
    if root is not None and same_question(text, root.user_question):
        newer = Question.objects.filter(binge=binge, user_question__iexact=text.strip()).first()
        return newer or root
    return Question.objects.filter(binge=binge, user_question__iexact=text.strip()).first()


def binge_unused_for(*, guru: Guru, owner: User, text: str) -> Binge | None:
    """The owner's session rooted at an earlier answer to these very words that has no
    follow-ups yet: an API answer to a repeated question is returned in it. Raw SQL: it runs
    before every API answer, and the ORM takes far longer to build this query than to run it."""
    quote = connection.ops.quote_name
    binges, questions = quote(Binge._meta.db_table), quote(Question._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT b.id, b.root_question_id FROM {binges} b "  # noqa: S608
            f"JOIN {questions} r ON r.id = b.root_question_id "
            "WHERE b.guru_id = %s AND b.owner_id = %s AND LOWER(r.user_question) = LOWER(%s) "
            f"AND NOT EXISTS (SELECT 1 FROM {questions} f WHERE f.binge_id = b.id) "
            "ORDER BY b.created_at DESC LIMIT 1",
            [guru.pk, owner.pk, text.strip()],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    # SQLite hands back the id as hex text, PostgreSQL as a UUID.
    return partial_instance(Binge, {"id": UUID(str(row[0])), "root_question_id": row[1]})


def binge_list(*, guru: Guru, owner: User) -> QuerySet[Binge]:
    return (
        Binge.objects.filter(guru=guru, owner=owner)
        .select_related("root_question")
        .order_by("-updated_at")
    )


def binge_get(*, guru: Guru, binge_id: UUID | str, owner: User | None = None) -> Binge:
    binges = Binge.objects.filter(guru=guru, pk=binge_id)
    binge = (binges.filter(owner=owner) if owner is not None else binges).first()
    if binge is None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such session.")
    return binge


def binge_of_asker(*, guru: Guru, binge_id: UUID | str, owner: User | None) -> Binge:
    """A session to ask in: the guru's, and the asker's own. A key's person asks in theirs;
    anonymous askers (visitors of the site and the widget, the bots' threads) in anonymous
    ones, never in a person's."""
    if owner is not None:
        return binge_get(guru=guru, binge_id=binge_id, owner=owner)
    binge = Binge.objects.filter(pk=binge_id, guru=guru, owner__isnull=True).first()
    if binge is None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such follow-up session.")
    return binge


def binge_follow_up_parent(*, binge: Binge, named: str = "") -> Question | None:
    """What a follow-up in `binge` answers on top of: the question it names, if that is in the
    binge, else the binge's latest question, else its root."""
    questions = Question.objects.filter(binge=binge)
    found = questions.filter(slug=named).first() if named else None
    return found or questions.order_by("-created_at").first() or binge.root_question


def binge_questions(*, binge: Binge) -> list[Question]:
    """The root question, then the follow-ups in the order they were asked."""
    follow_ups = list(Question.objects.filter(binge=binge).order_by("created_at"))
    return [*([binge.root_question] if binge.root_question else []), *follow_ups]


def binge_history(*, binge: Binge, limit: int = 5) -> list[tuple[str, str]]:
    """(question, answer) pairs of a binge, oldest first, starting with its root question."""
    recent = list(Question.objects.filter(binge=binge).order_by("-created_at")[:limit])
    questions = [*([binge.root_question] if binge.root_question else []), *reversed(recent)]
    return [(q.question, q.content) for q in questions[-limit:]]


def question_vote_counts(*, question: Question) -> dict[str, int]:
    """{"upvote": n, "downvote": m}: the answer's current votes, one per voter."""
    counts = dict(
        Vote.objects.filter(question=question)
        .values_list("vote_type")
        .annotate(n=Count("pk"))
        .values_list("vote_type", "n")
    )
    return {kind: counts.get(kind, 0) for kind in Vote.Type.values}


def question_titles_recent(*, guru: Guru, limit: int) -> list[str]:
    """The latest answered questions outside follow-up sessions (what visitors ask)."""
    return list(_answered(guru).order_by("-created_at").values_list("question", flat=True)[:limit])


def question_of_guru(*, guru: Guru, question_id: int) -> Question:
    question = Question.objects.filter(guru=guru, pk=question_id).first()
    if question is None:
        raise DomainError(ErrorCode.QUESTION_NOT_FOUND, f"No question {question_id} here.")
    return question


def refusal_of_guru(*, guru: Guru, refusal_id: int) -> OutOfContextQuestion:
    refusal = OutOfContextQuestion.objects.filter(guru=guru, pk=refusal_id).first()
    if refusal is None:
        raise DomainError(ErrorCode.QUESTION_NOT_FOUND, f"No refusal {refusal_id} here.")
    return refusal


def question_pages_showing(*, question: Question) -> list[str]:
    """The public pages that show `question`: its own (outside any follow-up session), and its
    parent's, which lists the questions asked on top of it."""
    slugs = [question.slug] if question.binge_id is None else []
    if question.parent_id is not None:
        parent = Question.objects.filter(pk=question.parent_id, binge__isnull=True)
        slugs += parent.values_list("slug", flat=True)
    guru_slug = question.guru.slug
    return [question_page_path(guru_slug=guru_slug, question_slug=slug) for slug in slugs]
