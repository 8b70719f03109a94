"""The daily rollups' SQL (models `AskedDay`, `TrustDay`, `VoteDay`): the triggers that keep
them and the rebuild, for PostgreSQL and SQLite, made from one description of each count.

Why triggers, in the transaction of the write: the analytics must equal a count of the rows,
and closed days do change (a vote switched, an answer or a whole guru deleted, a trust score
lowered by the grounding check after midnight, a refusal's trace pruned). A trigger moves the
counts with every path that writes the rows (the answer path, votes, bulk updates, the
cascades of a delete, a backup import, the volume generator's `INSERT … SELECT`), so nothing
drifts and no repair job is needed; a nightly rebuild of closed days would be wrong until it
ran. The cost is one upsert per table per write, on the row of today's counts (held until the
write commits). PostgreSQL counts inserts and deletes per statement from transition tables, so
a bulk insert or a cascade is one grouped upsert; updates are per row, and only when a counted
column changes. SQLite has row triggers only.
"""

from dataclasses import dataclass
from typing import Any

_EDGES = ",".join(str(n / 100) for n in range(101))  # the same doubles as Python's n / 100
_SQLITE_B = "CAST({t} * 100 AS INTEGER)"  # off by at most one from the bucket, corrected:
_SQLITE_BUCKET = (
    "CASE WHEN {t} < 0 THEN -1 WHEN {t} >= 1.0 THEN 100 "
    f"ELSE {_SQLITE_B} - ({_SQLITE_B} / 100.0 > {{t}}) + (({_SQLITE_B} + 1) / 100.0 <= {{t}}) END"
)
_EXPRESSIONS = {
    "postgresql": {
        "day": "({r}created_at AT TIME ZONE 'UTC')::date",
        "bucket": "width_bucket({r}trust_score, '{{" + _EDGES + "}}'::float8[]) - 1",
        "refused": "CASE WHEN {r}trace->>'refused_because' = 'not_valid' THEN 1 ELSE 0 END",
    },
    "sqlite": {
        "day": "date({r}created_at)",
        "bucket": _SQLITE_BUCKET.format(t="{r}trust_score"),
        "refused": (
            "CASE WHEN json_extract({r}trace, '$.refused_because') = 'not_valid' THEN 1 ELSE 0 END"
        ),
    },
}
# A cited source, from one element `e` of an answer's references, as the raw count reads it.
_CITED = {
    "postgresql": {
        "expand": "CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(r.refs) = "
        "'array' THEN r.refs ELSE '[]'::jsonb END) AS e",
        "link": "COALESCE(e.value->>'link', '')",
        "title": "COALESCE(e.value->>'title', '')",
        "ref": "md5(link || chr(10) || title)",
    },
    "sqlite": {
        "expand": ", json_each(CASE WHEN json_type(r.refs) = 'array' THEN r.refs ELSE '[]' END) "
        "AS e",
        "link": (
            "COALESCE(CASE WHEN e.type = 'object' THEN json_extract(e.value, '$.link') END, '')"
        ),
        "title": (
            "COALESCE(CASE WHEN e.type = 'object' THEN json_extract(e.value, '$.title') END, '')"
        ),
        "ref": "link || char(10) || title",
    },
}
_UP = "CASE WHEN {r}vote_type = 'upvote' THEN 1 ELSE 0 END"
_DOWN = "CASE WHEN {r}vote_type = 'downvote' THEN 1 ELSE 0 END"


@dataclass(frozen=True)
class Rollup:
    table: str
    key: tuple[str, ...]  # after guru_id and day
    counts: dict[str, str]  # rollup column: the row's contribution (an expression)


@dataclass(frozen=True)
class Counted:
    """A counted table, the rollups it feeds and the columns that move its counts."""

    table: str
    rollups: tuple[Rollup, ...]
    columns: tuple[str, ...]  # plain columns a row contributes through
    where: str  # which rows count
    watched: tuple[str, ...]  # an update of these moves counts


_ASKED = "answers_askedday"
COUNTED = (
    Counted(
        table="answers_question",
        rollups=(
            Rollup(_ASKED, ("source",), {"answers": "1"}),
            Rollup("answers_trustday", ("bucket",), {"answers": "1"}),
        ),
        columns=("source",),
        where="source <> 'GENERATED'",
        watched=("guru_id", "created_at", "source", "trust_score", '"references"'),
    ),
    Counted(
        table="answers_outofcontextquestion",
        rollups=(Rollup(_ASKED, ("source",), {"refusals": "1", "refused": "refused"}),),
        columns=("source",),
        where="source <> 'GENERATED'",
        watched=("guru_id", "created_at", "source", "refused"),
    ),
    Counted(
        table="answers_vote",
        rollups=(Rollup("answers_voteday", (), {"up": "up", "down": "down"}),),
        columns=(),
        where="guru_id IS NOT NULL",
        watched=("guru_id", "created_at", "vote_type"),
    ),
)
_CITED_TABLE = "answers_citedday"
ROLLUP_TABLES = (_ASKED, "answers_trustday", "answers_voteday", _CITED_TABLE)


def _row(counted: Counted, vendor: str, prefix: str, sign: str) -> str:
    """SELECT the row's key parts and contributions; `prefix` "OLD." / "NEW." / "" (then the
    caller adds FROM)."""
    found = _EXPRESSIONS[vendor]
    parts = [f"{prefix}guru_id AS guru_id", f"{found['day'].format(r=prefix)} AS day"]
    parts += [f"{prefix}{column} AS {column}" for column in counted.columns]
    if counted.table == "answers_question":
        parts.append(f"{found['bucket'].format(r=prefix)} AS bucket")
        parts += [f"{prefix}id AS id", f'{prefix}"references" AS refs']
    if counted.table == "answers_outofcontextquestion":
        parts.append(f"{found['refused'].format(r=prefix)} AS refused")
    if counted.table == "answers_vote":
        parts += [f"{_UP.format(r=prefix)} AS up", f"{_DOWN.format(r=prefix)} AS down"]
    return f"SELECT {', '.join(parts)}, {sign} AS sign"


def _upsert(rollup: Rollup, rows: str, where: str) -> str:
    """Add the rows' signed contributions to the rollup, grouped by its key."""
    key = ("guru_id", "day", *rollup.key)
    sums = [f"SUM(sign * {expression})" for expression in rollup.counts.values()]
    columns = ", ".join((*key, *rollup.counts))
    moved = " OR ".join(f"{total} <> 0" for total in sums)
    adds = ", ".join(f"{name} = {rollup.table}.{name} + excluded.{name}" for name in rollup.counts)
    return (
        f"INSERT INTO {rollup.table} ({columns}) "  # noqa: S608 (made of constants)
        f"SELECT {', '.join(key)}, {', '.join(sums)} FROM ({rows}) AS r WHERE {where} "
        f"GROUP BY {', '.join(key)} HAVING {moved} ORDER BY {', '.join(key)} "
        f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET {adds}"
    )


def _citations(vendor: str, rows: str) -> str:
    """Add each answer's distinct cited sources (link, title) to `CitedDay`."""
    cited = _CITED[vendor]
    key = "guru_id, day, link, title"
    return (
        f"INSERT INTO {_CITED_TABLE} (guru_id, day, ref, link, title, answers) "  # noqa: S608
        f"SELECT guru_id, day, {cited['ref']}, link, title, SUM(sign) FROM ("
        f"SELECT DISTINCT r.id, r.sign, r.guru_id, r.day, {cited['link']} AS link, "
        f"{cited['title']} AS title FROM ({rows}) AS r {cited['expand']} "
        f"WHERE r.source <> 'GENERATED') AS c WHERE true GROUP BY {key} HAVING SUM(sign) <> 0 "
        f"ORDER BY {key} ON CONFLICT (guru_id, day, ref) "
        f"DO UPDATE SET answers = {_CITED_TABLE}.answers + excluded.answers"
    )


def _statements(counted: Counted, vendor: str, rows: str) -> list[str]:
    found = [_upsert(rollup, rows, counted.where) for rollup in counted.rollups]
    if counted.table == "answers_question":
        found.append(_citations(vendor, rows))
    return found


def _changed(counted: Counted, vendor: str, old: str, new: str) -> str:
    """SQL true when an update moves counts, comparing the contributions, not raw columns
    (a refusal's trace changes without moving a count unless its reason does)."""
    differ = "IS DISTINCT FROM" if vendor == "postgresql" else "IS NOT"
    found = _EXPRESSIONS[vendor]
    tests = []
    for column in counted.watched:
        if column == "created_at":
            before, after = found["day"].format(r=old), found["day"].format(r=new)
        elif column == "refused":
            before, after = found["refused"].format(r=old), found["refused"].format(r=new)
        else:
            before, after = f"{old}{column}", f"{new}{column}"
        tests.append(f"({before}) {differ} ({after})")
    return " OR ".join(tests)


def _both(counted: Counted, vendor: str) -> str:
    old = _row(counted, vendor, "OLD.", "-1")
    return f"{old} UNION ALL {_row(counted, vendor, 'NEW.', '1')}"


def _postgresql(counted: Counted) -> list[str]:
    name = f"og_rollup_{counted.table}"
    batch = _row(counted, "postgresql", "", "s") + " FROM changed"
    per_statement = "; ".join(_statements(counted, "postgresql", batch))
    per_row = "; ".join(_statements(counted, "postgresql", _both(counted, "postgresql")))
    return [
        f"CREATE OR REPLACE FUNCTION {name}_rows() RETURNS trigger LANGUAGE plpgsql AS $$ "
        f"DECLARE s int := TG_ARGV[0]::int; BEGIN {per_statement}; RETURN NULL; END $$",
        f"CREATE OR REPLACE FUNCTION {name}_update() RETURNS trigger LANGUAGE plpgsql AS $$ "
        f"BEGIN {per_row}; RETURN NULL; END $$",
        f"DROP TRIGGER IF EXISTS {name}_insert ON {counted.table}",
        f"CREATE TRIGGER {name}_insert AFTER INSERT ON {counted.table} REFERENCING NEW TABLE "
        f"AS changed FOR EACH STATEMENT EXECUTE FUNCTION {name}_rows('1')",
        f"DROP TRIGGER IF EXISTS {name}_delete ON {counted.table}",
        f"CREATE TRIGGER {name}_delete AFTER DELETE ON {counted.table} REFERENCING OLD TABLE "
        f"AS changed FOR EACH STATEMENT EXECUTE FUNCTION {name}_rows('-1')",
        f"DROP TRIGGER IF EXISTS {name}_update ON {counted.table}",
        f"CREATE TRIGGER {name}_update AFTER UPDATE ON {counted.table} FOR EACH ROW "
        f"WHEN ({_changed(counted, 'postgresql', 'OLD.', 'NEW.')}) "
        f"EXECUTE FUNCTION {name}_update()",
    ]


def _sqlite(counted: Counted) -> list[str]:
    name = f"og_rollup_{counted.table}"
    bodies = {
        "insert": _row(counted, "sqlite", "NEW.", "1"),
        "delete": _row(counted, "sqlite", "OLD.", "-1"),
        "update": _both(counted, "sqlite"),
    }
    found = []
    for event, rows in bodies.items():
        when = {
            "insert": "",
            "update": f" WHEN {_changed(counted, 'sqlite', 'OLD.', 'NEW.')}",
            # Rows deleted after their guru (SQLite's flush empties table after table) leave
            # no counts behind for an id the next guru may be given.
            "delete": " WHEN EXISTS (SELECT 1 FROM gurus_guru WHERE id = OLD.guru_id)",
        }[event]
        body = "".join(f"{sql}; " for sql in _statements(counted, "sqlite", rows))
        found += [
            f"DROP TRIGGER IF EXISTS {name}_{event}",
            f"CREATE TRIGGER {name}_{event} AFTER {event.upper()} ON {counted.table} "
            f"FOR EACH ROW{when} BEGIN {body}END",
        ]
    return found


def _guru_gone(vendor: str) -> list[str]:
    """A deleted guru's rollup rows go after it (its rows were deleted before it, counted)."""
    deletes = "".join(
        f"DELETE FROM {table} WHERE guru_id = OLD.id; "  # noqa: S608 (made of constants)
        for table in ROLLUP_TABLES
    )
    if vendor == "sqlite":
        return [
            "DROP TRIGGER IF EXISTS og_rollup_guru_delete",
            "CREATE TRIGGER og_rollup_guru_delete AFTER DELETE ON gurus_guru FOR EACH ROW "
            f"BEGIN {deletes}END",
        ]
    return [
        "CREATE OR REPLACE FUNCTION og_rollup_guru_delete() RETURNS trigger LANGUAGE plpgsql "
        f"AS $$ BEGIN {deletes}RETURN NULL; END $$",
        "DROP TRIGGER IF EXISTS og_rollup_guru_delete ON gurus_guru",
        "CREATE TRIGGER og_rollup_guru_delete AFTER DELETE ON gurus_guru FOR EACH ROW "
        "EXECUTE FUNCTION og_rollup_guru_delete()",
    ]


def triggers_sql(vendor: str) -> list[str]:
    """The statements (re)creating every rollup trigger: idempotent."""
    make = _postgresql if vendor == "postgresql" else _sqlite
    return [sql for counted in COUNTED for sql in make(counted)] + _guru_gone(vendor)


def triggers_drop_sql(vendor: str) -> list[str]:
    found = []
    for table in (*(counted.table for counted in COUNTED), "gurus_guru"):
        name = "og_rollup_guru" if table == "gurus_guru" else f"og_rollup_{table}"
        events = ("delete",) if table == "gurus_guru" else ("insert", "delete", "update")
        on = f" ON {table}" if vendor == "postgresql" else ""
        found += [f"DROP TRIGGER IF EXISTS {name}_{event}{on}" for event in events]
    return found


def rebuild_sql(vendor: str) -> list[str]:
    """Empty the rollups and count every row again (the triggers' result, from scratch)."""
    found = [f"DELETE FROM {table}" for table in ROLLUP_TABLES]  # noqa: S608 (constants)
    for counted in COUNTED:
        rows = _row(counted, vendor, "", "1") + f" FROM {counted.table}"
        found += _statements(counted, vendor, rows)
    return found


def execute_all(cursor: Any, statements: list[str]) -> None:
    for sql in statements:
        cursor.execute(sql)
