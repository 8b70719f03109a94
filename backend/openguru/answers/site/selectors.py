"""Reads of the public Q&A site: a guru's front page (example, recent and popular questions, its
sources), the sitemap, and one answer with its votes and follow-ups."""

import logging
from typing import Any
from uuid import UUID

from django.conf import settings
from django.core.cache import cache
from django.db.models import CharField, Count, Func, QuerySet

from openguru.accounts.access import gurus_public
from openguru.answers.models import Binge, Question, Vote
from openguru.answers.selectors import question_get, question_vote_counts
from openguru.answers.site.phrasing import question_from_heading
from openguru.core.cache import cache_guarded
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.providers.llm.factory import llm_configured
from openguru.providers.vectorstore.base import VectorStore
from openguru.sources.models import DataSource

logger = logging.getLogger(__name__)

MAX_EXAMPLES = 6
FRONT_PAGE_QUESTIONS = 10
EXAMPLES_TTL = 300  # seconds: new sources and answers show up soon enough
LISTED_SOURCES = 20  # titles on a guru's front page
HEADING_SOURCES = 6  # sources whose chunks are read for headings
CHUNKS_PER_SOURCE = 8


# Asked in a team's Slack, Discord or Teams, or of the GitHub App bot: the conversation is the
# team's (or the repository's), so it gets no public page (its answer may still be reused for the
# same question elsewhere, as it quotes public sources).
PRIVATE_SOURCES = (
    Question.Source.SLACK,
    Question.Source.DISCORD,
    Question.Source.GITHUB,
    Question.Source.TEAMS,
)


def site_questions(*, guru: Guru | None = None) -> QuerySet[Question]:
    """Answered questions outside follow-up sessions (each has a page of its own), except those
    asked in a team's chat. Without a guru: the active public gurus' (the sitemap's)."""
    questions = (
        Question.objects.filter(binge__isnull=True)
        .exclude(content="")
        .exclude(source__in=PRIVATE_SOURCES)
    )
    if guru is not None:
        return questions.filter(guru=guru)
    return questions.filter(guru__in=gurus_public())


def questions_recent(*, guru: Guru, limit: int = FRONT_PAGE_QUESTIONS) -> list[Question]:
    return list(site_questions(guru=guru).order_by("-created_at")[:limit])


def questions_popular(*, guru: Guru, limit: int = FRONT_PAGE_QUESTIONS) -> list[Question]:
    """Most upvoted first (views are not counted), then the newest."""
    return list(site_questions(guru=guru).order_by("-upvotes", "-created_at")[:limit])


def sources_by_type(*, guru: Guru) -> dict[str, Any]:
    rows = (
        DataSource.objects.filter(guru=guru)
        .values("type")
        .annotate(count=Count("pk"))
        .order_by("-count", "type")
    )
    by_type = [{"type": row["type"], "count": row["count"]} for row in rows]
    indexed = DataSource.objects.filter(
        guru=guru, private=False, status=DataSource.Status.SUCCESS
    ).order_by("title", "url")
    titles = [
        {"title": title or url, "type": type_}
        for title, url, type_ in indexed.values_list("title", "url", "type")[:LISTED_SOURCES]
    ]
    return {"total": sum(row["count"] for row in by_type), "by_type": by_type, "titles": titles}


def example_questions(*, guru: Guru, store: VectorStore) -> list[str]:
    """Up to MAX_EXAMPLES questions to offer a first-time visitor, kept a few minutes: with an
    LLM and a summarized guru, what visitors asked; otherwise (or to fill up) questions made
    from the headings of its sources, else from their titles."""
    key = f"site-examples:{guru.pk}:{llm_configured()}"
    cached = cache_guarded(lambda: cache.get(key), use="examples", default=None)
    if cached is not None:
        return list(cached)
    examples: list[str] = []
    if llm_configured() and guru.summary:
        asked = [q.question for q in questions_popular(guru=guru, limit=MAX_EXAMPLES)]
        asked += [q.question for q in questions_recent(guru=guru, limit=MAX_EXAMPLES)]
        examples = _distinct(asked)
    if len(examples) < MAX_EXAMPLES:
        made = [question_from_heading(h, subject=guru.name) for h in _headings(guru, store)]
        examples = _distinct([*examples, *made])
    cache_guarded(
        lambda: cache.set(key, examples[:MAX_EXAMPLES], timeout=EXAMPLES_TTL),
        use="examples",
        default=None,
    )
    return examples[:MAX_EXAMPLES]


def _sources_for_examples(guru: Guru) -> list[tuple[int, str]]:
    sources = (
        DataSource.objects.filter(guru=guru, status=DataSource.Status.SUCCESS)
        .order_by("-created_at")
        .values_list("pk", "title")
    )
    return list(sources[:HEADING_SOURCES])


def _headings(guru: Guru, store: VectorStore) -> list[str]:
    """The last heading of a few chunks of each source (the vector store keeps them), else the
    source's title. A vector store that cannot answer costs the headings, not the page: the
    titles stand in, and it is not asked again for the other sources."""
    headings: list[str] = []
    store_answers = True
    for source_id, title in _sources_for_examples(guru):
        found: list[str] = []
        if store_answers:
            try:
                found = _source_headings(guru, source_id, store)
            except DomainError as exc:
                logger.warning("no headings for the example questions: %s", exc)
                store_answers = False
        headings += found[:2] or ([title] if title else [])
    return headings


def _source_headings(guru: Guru, source_id: int, store: VectorStore) -> list[str]:
    hits = store.source_chunks(guru.collection_name, source_id=source_id, limit=CHUNKS_PER_SOURCE)
    paths = sorted(str(hit.metadata.get("heading_path") or "") for hit in hits)
    return _distinct([path.split(" > ")[-1] for path in paths])


def _distinct(texts: list[str]) -> list[str]:
    seen: set[str] = set()
    kept = []
    for text in texts:
        if text and text.casefold() not in seen:
            seen.add(text.casefold())
            kept.append(text)
    return kept


def _sitemap_page_of(question_id: int) -> int:
    return (question_id - 1) // settings.SITEMAP_PAGE_SIZE + 1


def _sitemap_end(order: str) -> int | None:
    """The first or last answer's id, walked along the primary key (an ORDER BY … LIMIT 1,
    which the planner keeps to the key's index whatever it thinks of the filters)."""
    return site_questions().order_by(order).values_list("id", flat=True).first()


def sitemap_index() -> dict[str, Any]:
    """The sitemap's pages and the public gurus. Page n lists the answers whose ids fall in the
    n-th run of `SITEMAP_PAGE_SIZE` ids, so no page holds more than that many URLs, a page's
    address never changes as answers are added, and the index costs two index lookups however
    many answers there are (a page may be short, or empty where answers were deleted)."""
    first, last = _sitemap_end("id"), _sitemap_end("-id")
    pages: list[int] = []
    if first is not None and last is not None:
        pages = list(range(_sitemap_page_of(first), _sitemap_page_of(last) + 1))
    gurus = list(gurus_public().order_by("slug").values_list("slug", flat=True))
    return {"page_size": settings.SITEMAP_PAGE_SIZE, "pages": pages, "gurus": gurus}


class _UtcIso(Func):
    """A timestamp as the API writes it (DRF's `isoformat()`, "Z" for UTC, microseconds only
    when there are any), made by the database: parsing tens of thousands of timestamps into
    datetimes and formatting them again was most of a sitemap page's time."""

    output_field = CharField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        at = "(%(expressions)s AT TIME ZONE 'UTC')"
        template = (
            f"to_char({at}, 'YYYY-MM-DD\"T\"HH24:MI:SS') || CASE WHEN "
            f"date_trunc('second', {at}) = {at} THEN '' ELSE to_char({at}, '.US') END || 'Z'"
        )
        return self.as_sql(compiler, connection, template=template, **extra)

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        # Stored as `isoformat(" ")` in UTC.
        template = "replace(%(expressions)s, ' ', 'T') || 'Z'"
        return self.as_sql(compiler, connection, template=template, **extra)


def sitemap_questions(*, page: int | None = None) -> list[dict[str, Any]]:
    """The answers of one sitemap page (default: the newest answers' page), newest first;
    `date_updated` already an ISO 8601 string."""
    size = settings.SITEMAP_PAGE_SIZE
    if page is None:
        last = _sitemap_end("-id")
        page = _sitemap_page_of(last) if last is not None else 1
    rows = (
        site_questions()
        .filter(id__gt=(page - 1) * size, id__lte=page * size)
        .order_by("-id")
        .values_list("guru__slug", "slug", _UtcIso("updated_at"))
    )
    return [
        {"guru_slug": guru_slug, "slug": slug, "date_updated": updated}
        for guru_slug, slug, updated in rows
    ]


def site_question_get(*, guru: Guru, slug: str, binge_id: UUID | None = None) -> Question:
    """An answer outside any session, or inside session `binge_id` (whose root question lives
    outside it, but is part of it)."""
    if binge_id is None:
        return _public(question_get(guru=guru, slug=slug))
    binge = Binge.objects.select_related("root_question").filter(pk=binge_id, guru=guru).first()
    if binge is None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such follow-up session.")
    inside = Question.objects.filter(guru=guru, binge=binge, slug=slug).first()
    if inside is not None:
        return _public(inside)
    if binge.root_question is not None and binge.root_question.slug == slug:
        return _public(binge.root_question)
    raise DomainError(ErrorCode.QUESTION_NOT_FOUND, f"No question '{slug}' in this session.")


def _public(question: Question) -> Question:
    if question.source in PRIVATE_SOURCES:
        raise DomainError(ErrorCode.QUESTION_NOT_FOUND, f"No question '{question.slug}' here.")
    return question


def question_children(*, question: Question) -> list[dict[str, str]]:
    """Questions asked on top of this one, in or outside follow-up sessions, oldest first. The
    same follow-up asked in two sessions is one question to a reader: listed once, the oldest."""
    children = Question.objects.filter(parent=question).order_by("created_at")
    first_by_slug: dict[str, str] = {}
    for slug, text in children.values_list("slug", "question"):
        first_by_slug.setdefault(slug, text)
    return [{"slug": slug, "question": text} for slug, text in first_by_slug.items()]


def question_page_extras(*, question: Question) -> dict[str, Any]:
    """What an answer's page shows besides the answer: whether its sources changed since, its
    votes, and the questions asked on top of it."""
    votes = question_vote_counts(question=question)
    return {
        "stale": question.stale,
        "upvotes": votes[Vote.Type.UP],
        "downvotes": votes[Vote.Type.DOWN],
        "children": question_children(question=question),
    }
