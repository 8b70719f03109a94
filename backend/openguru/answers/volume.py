"""Realistic volume on PostgreSQL, for measuring reads at scale: gurus with sources, a year of
questions (answers with references and decision traces, follow-up sessions, votes) and
refusals. The rows are made by PostgreSQL itself (`INSERT … SELECT` over `generate_series`,
seeded with `setseed`), so ten million questions take minutes, not hours of Python loops.

Shapes follow a live instance: a few gurus get most questions (the share of guru k falls off
as a power law), questions arrive in time order (the table's physical order follows
`created_at`, as an append-only table's does), most come from the site and the widget, one in
ten answers is voted on, one in twelve asks is refused, one in twenty answers starts a
follow-up session of one to three questions. The analytics' daily rollups fill as the rows
go in (their triggers count each `INSERT … SELECT` as one grouped upsert)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction

from openguru.answers.analytics.rollup_sql import ROLLUP_TABLES
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru, Visibility
from openguru.sources.models import DataSource

SLUG_PREFIX = "vol-"
SOURCES_PER_GURU = 20
BATCH = 500_000  # questions per INSERT: progress is reported between batches
BIG = 200_000  # questions from which indexes are dropped while loading and built after
REFUSED_SHARE = 0.08  # of the answers' count
VOTED_SHARE = 0.10
BINGE_SHARE = 0.05
# Question.source by share of asks: the site and the widget ask most.
SOURCE_SHARES = (
    ("USER", 0.40), ("WIDGET", 0.25), ("API", 0.15), ("SLACK", 0.08), ("DISCORD", 0.04),
    ("TEAMS", 0.03), ("GITHUB", 0.03), ("GENERATED", 0.02),
)  # fmt: skip
_VERBS = "install,configure,upgrade,debug,deploy,test,cache,secure,migrate,monitor"
_NOUNS = "a virtual environment,the proxy,logging,the database,a plugin,the CLI,webhooks,TLS"


@dataclass(frozen=True)
class VolumeReport:
    gurus: int
    sources: int
    questions: int  # answers outside follow-up sessions
    follow_ups: int  # answers inside them
    binges: int
    refusals: int
    votes: int


def _source_case() -> str:
    """SQL: a Question.source drawn by SOURCE_SHARES from the row's `r` in [0, 1)."""
    parts, edge = [], 0.0
    for name, share in SOURCE_SHARES[:-1]:
        edge += share
        parts.append(f"WHEN r < {edge:.4f} THEN '{name}'")
    return f"CASE {' '.join(parts)} ELSE '{SOURCE_SHARES[-1][0]}' END"


# A power law over gurus: guru k (0-based) is drawn with probability ~ k^-0.8.
_GURU_PICK = "ids[1 + floor(cardinality(ids) * power(random(), 3))::int]"

_QUESTIONS_SQL = f"""
WITH g AS (
    SELECT n, random() AS r, {_GURU_PICK} AS guru_id,
           %(now)s::timestamptz - make_interval(secs => %(span)s * (1 - n::float8 / %(total)s)
                                                        + random() * 60) AS at,
           (string_to_array(%(verbs)s, ','))[1 + floor(random() * 10)::int] AS verb,
           (string_to_array(%(nouns)s, ','))[1 + floor(random() * 8)::int] AS noun,
           0.3 + 0.7 * sqrt(random()) AS trust,
           1 + floor(random() * {SOURCES_PER_GURU})::int AS page
    FROM generate_series(%(first)s, %(last)s) AS n, (SELECT %(ids)s::bigint[] AS ids) AS s
)
INSERT INTO answers_question (
    created_at, updated_at, slug, question, user_question, content, description, user_intent,
    answer_length, trust_score, "references", source, extractive, llm_model, prompt_tokens,
    completion_tokens, latency_ms, trace, stale, guru_id, version, upvotes
)
SELECT at, at, 'how-do-i-' || verb || '-' || n, 'How do I ' || verb || ' ' || noun || '?',
       'how to ' || verb || ' ' || noun || ' #' || n,
       '## ' || initcap(verb) || E'\\n\\n' || repeat('To ' || verb || ' ' || noun
           || ', follow the steps in the guide [1] and check the settings it names. ', 6),
       'How to ' || verb || ' ' || noun, verb, 480, trust,
       jsonb_build_array(
           jsonb_build_object('title', 'Page ' || page, 'icon', 'web',
                              'link', 'https://docs.example.com/' || guru_id || '/p' || page),
           jsonb_build_object('title', 'Guide', 'icon', 'web',
                              'link', 'https://docs.example.com/' || guru_id || '/guide')),
       {_source_case()}, r < 0.2, 'gemini-2.0-flash', 900, 180, 1200 + (r * 3000)::int,
       jsonb_build_object(
           'decision', 'answered', 'reason', 'passed_gate', 'question', verb,
           'candidates', jsonb_build_array(
               jsonb_build_object('id', n || '-0', 'fused', trust, 'dense', trust, 'bm25', 7.5),
               jsonb_build_object('id', n || '-1', 'fused', trust / 2, 'dense', 0.41),
               jsonb_build_object('id', n || '-2', 'fused', trust / 3, 'dense', 0.33)),
           'timings_ms', jsonb_build_object('retrieve', 38, 'llm', 1100, 'total', 1190)),
       false, guru_id, '', 0
FROM g
"""  # noqa: S608 (made of constants)

_REFUSALS_SQL = f"""
INSERT INTO answers_outofcontextquestion (
    created_at, updated_at, user_question, source, best_score, trace, guru_id
)
SELECT at, at, 'does it run on a toaster #' || n, {_source_case()}, r / 3,
       jsonb_build_object('decision', 'refused', 'best_score', r / 3,
                          'refused_because', CASE WHEN r < 0.3 THEN 'not_valid'
                                                  ELSE 'low_relevance' END), guru_id
FROM (
    SELECT n, random() AS r, {_GURU_PICK} AS guru_id,
           %(now)s::timestamptz - make_interval(secs => %(span)s * (1 - n::float8 / %(total)s))
           AS at
    FROM generate_series(%(first)s, %(last)s) AS n, (SELECT %(ids)s::bigint[] AS ids) AS s
) AS g
"""  # noqa: S608 (made of constants)

_BINGES_SQL = """
INSERT INTO answers_binge (id, created_at, updated_at, guru_id, root_question_id)
SELECT gen_random_uuid(), created_at, created_at, guru_id, id
FROM answers_question
WHERE guru_id = ANY(%(ids)s) AND binge_id IS NULL AND random() < %(share)s
"""

_FOLLOW_UPS_SQL = """
INSERT INTO answers_question (
    created_at, updated_at, slug, question, user_question, content, description, user_intent,
    answer_length, trust_score, "references", source, extractive, llm_model, prompt_tokens,
    completion_tokens, latency_ms, trace, stale, guru_id, binge_id, parent_id, version, upvotes
)
SELECT q.created_at + make_interval(mins => k), q.created_at + make_interval(mins => k),
       'and-then-' || k, 'And then, step ' || k || '?', 'and then ' || k,
       'Then do step ' || k || ' as the guide says [1].', '', '', 40, q.trust_score,
       q."references", q.source, false, q.llm_model, 1200, 60, 900, q.trace, false, q.guru_id,
       b.id, q.id, '', 0
FROM answers_binge b JOIN answers_question q ON q.id = b.root_question_id
CROSS JOIN LATERAL generate_series(1, 1 + floor(random() * 3)::int) AS k
WHERE b.guru_id = ANY(%(ids)s)
"""

_VOTES_SQL = """
INSERT INTO answers_vote (
    created_at, updated_at, vote_type, feedback, voter, source, question_id, guru_id
)
SELECT q.created_at + make_interval(hours => v), q.created_at + make_interval(hours => v),
       CASE WHEN random() < 0.8 THEN 'upvote' ELSE 'downvote' END, '',
       md5(q.id || '-' || v), q.source, q.id, q.guru_id
FROM answers_question q CROSS JOIN LATERAL generate_series(1, 1 + (q.id %% 2)::int) AS v
WHERE q.guru_id = ANY(%(ids)s) AND q.binge_id IS NULL AND random() < %(share)s
"""


_PLAIN_INDEXES = """
SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)
FROM pg_index i
WHERE i.indrelid = %s::regclass AND NOT i.indisprimary
  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
"""
_TABLES = ("answers_question", "answers_outofcontextquestion", "answers_vote", "answers_binge")


def _indexes_dropped(cursor: Any) -> list[str]:
    """Drop the tables' indexes that back no constraint and return their definitions: building
    an index once over the loaded rows is several times faster than updating it per row."""
    definitions = []
    for table in _TABLES:
        cursor.execute(_PLAIN_INDEXES, [table])
        for name, definition in cursor.fetchall():
            cursor.execute(f"DROP INDEX {name}")
            definitions.append(definition)
    return definitions


_UPVOTES_SQL = """
UPDATE answers_question q SET upvotes = v.n
FROM (SELECT question_id, COUNT(*) AS n FROM answers_vote v JOIN answers_question q
      ON q.id = v.question_id WHERE q.guru_id = ANY(%(ids)s) AND vote_type = 'upvote'
      GROUP BY 1) AS v
WHERE q.id = v.question_id
"""


def _gurus_create(count: int, *, seed_label: str) -> list[int]:
    Guru.objects.bulk_create(
        [
            Guru(
                slug=f"{SLUG_PREFIX}{seed_label}{n:04d}",
                name=f"Volume guru {n}",
                embedding_model="all-MiniLM-L6-v2",
                embedding_dimension=384,
                collection_name=f"vol_{seed_label}{n:04d}",
                visibility=Visibility.PUBLIC,
            )
            for n in range(count)
        ],
        batch_size=1000,
    )
    return list(
        Guru.objects.filter(slug__startswith=f"{SLUG_PREFIX}{seed_label}")
        .order_by("slug")
        .values_list("pk", flat=True)
    )


def _sources_create(guru_ids: list[int]) -> int:
    sources = [
        DataSource(
            guru_id=guru_id,
            type=DataSource.Type.WEBSITE if page % 4 else DataSource.Type.PDF,
            url=f"https://docs.example.com/{guru_id}/p{page}",
            title=f"Page {page}",
            status=DataSource.Status.SUCCESS,
            chunk_count=40,
        )
        for guru_id in guru_ids
        for page in range(1, SOURCES_PER_GURU + 1)
    ]
    DataSource.objects.bulk_create(sources, batch_size=5000)
    return len(sources)


def volume_generate(
    *,
    gurus: int,
    questions: int,
    days: int,
    seed: float = 0.42,
    label: str = "",
    progress: Callable[[str], None] = lambda message: None,
) -> VolumeReport:
    """Add `gurus` public gurus (slugs `vol-<label>NNNN`) with `questions` answers spread over
    the last `days` days, and their follow-ups, refusals and votes. PostgreSQL only."""
    if connection.vendor != "postgresql":
        raise DomainError(ErrorCode.INVALID_INPUT, "Generating volume needs PostgreSQL.")
    if gurus < 1 or questions < 0 or days < 1:
        raise DomainError(ErrorCode.INVALID_INPUT, "gurus ≥ 1, questions ≥ 0, days ≥ 1.")
    with transaction.atomic():
        ids = _gurus_create(gurus, seed_label=label)
        sources = _sources_create(ids)
    progress(f"{gurus} gurus, {sources} sources")
    from django.utils import timezone

    params: dict[str, Any] = {
        "ids": ids,
        "now": timezone.now(),
        "span": days * 86400.0,
        "verbs": _VERBS,
        "nouns": _NOUNS,
    }
    with transaction.atomic(), connection.cursor() as cursor:
        # Foreign keys checked per statement: an index cannot be built while checks are pending.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        definitions = _indexes_dropped(cursor) if questions >= BIG else []
        cursor.execute("SELECT setseed(%s)", [seed])
        params["total"] = max(questions, 1)
        for first in range(1, questions + 1, BATCH):
            last = min(first + BATCH - 1, questions)
            cursor.execute(_QUESTIONS_SQL, {**params, "first": first, "last": last})
            progress(f"questions {last}/{questions}")
        refusals = int(questions * REFUSED_SHARE)
        params["total"] = max(refusals, 1)
        cursor.execute(_REFUSALS_SQL, {**params, "first": 1, "last": refusals})
        cursor.execute(_BINGES_SQL, {"ids": ids, "share": BINGE_SHARE})
        binges = cursor.rowcount
        cursor.execute(_FOLLOW_UPS_SQL, {"ids": ids})
        follow_ups = cursor.rowcount
        progress(f"{refusals} refusals, {binges} follow-up sessions, {follow_ups} follow-ups")
        cursor.execute(_VOTES_SQL, {"ids": ids, "share": VOTED_SHARE})
        votes = cursor.rowcount
        cursor.execute(_UPVOTES_SQL, {"ids": ids})
        if definitions:
            progress(f"{votes} votes; building {len(definitions)} indexes")
            cursor.execute("SET LOCAL maintenance_work_mem = '512MB'")
        for definition in definitions:
            cursor.execute(definition)
    with connection.cursor() as cursor:
        # As autovacuum leaves a live table: statistics, and the visibility map that lets the
        # covering indexes answer counts without reading rows.
        progress("vacuuming")
        vacuum = "ANALYZE" if connection.in_atomic_block else "VACUUM ANALYZE"  # tests: ANALYZE
        for table in (*_TABLES, *ROLLUP_TABLES, "gurus_guru", "sources_datasource"):
            cursor.execute(f"{vacuum} {table}")
    return VolumeReport(
        gurus=gurus,
        sources=sources,
        questions=questions,
        follow_ups=follow_ups,
        binges=binges,
        refusals=refusals,
        votes=votes,
    )
