"""The sources a set of answers cited most, counted from the references each answer stores
(`[{title, link, icon}]`) by the database's own JSON functions: what `CitedDay` must equal."""

from typing import Any

from django.db import connection
from django.db.models import QuerySet
from openguru.answers.models import Question

TOP_SOURCES = 10

_POSTGRESQL = """
SELECT COALESCE(ref->>'link', '') AS url, COALESCE(ref->>'title', '') AS title,
       COUNT(DISTINCT q.id) AS citations
FROM {table} q
CROSS JOIN LATERAL jsonb_array_elements(
    CASE WHEN jsonb_typeof(q."references") = 'array' THEN q."references" ELSE '[]'::jsonb END
) AS ref
WHERE q.id IN ({ids})
GROUP BY 1, 2
ORDER BY citations DESC, url, title
LIMIT %s
"""

_SQLITE = """
SELECT COALESCE(json_extract(ref.value, '$.link'), '') AS url,
       COALESCE(json_extract(ref.value, '$.title'), '') AS title,
       COUNT(DISTINCT q.id) AS citations
FROM {table} q, json_each(CASE WHEN json_type(q."references") = 'array'
                               THEN q."references" ELSE '[]' END) AS ref
WHERE q.id IN ({ids})
GROUP BY 1, 2
ORDER BY citations DESC, url, title
LIMIT %s
"""


def top_cited_sources(
    *, questions: QuerySet[Question, Any], limit: int = TOP_SOURCES
) -> list[dict[str, Any]]:
    """The most cited references (link and title; a pasted or private source has no link),
    each with how many of `questions` cite it, most first. `questions` may be a slice of ids
    (the newest so many)."""
    if not questions.query.is_sliced:
        questions = questions.order_by().values("id")
    ids_sql, ids_params = questions.query.sql_with_params()
    template = _POSTGRESQL if connection.vendor == "postgresql" else _SQLITE
    sql = template.format(table=connection.ops.quote_name(Question._meta.db_table), ids=ids_sql)
    with connection.cursor() as cursor:
        cursor.execute(sql, [*ids_params, limit])
        rows = cursor.fetchall()
    return [{"title": title, "url": url, "citations": n} for url, title, n in rows]
