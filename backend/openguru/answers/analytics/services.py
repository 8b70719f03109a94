"""Rebuilding the daily rollups from the rows: after a restore that bypassed the triggers
(they are part of the schema, so a dump and `loaddata` keep them), or to check them."""

from django.db import connection, transaction

from openguru.answers.analytics.rollup_sql import COUNTED, execute_all, rebuild_sql


def analytics_rollups_rebuild() -> None:
    """Count every answer, refusal and vote again into the rollups, in one transaction. On
    PostgreSQL the counted tables are locked against writes meanwhile (reads go on), so no
    write lands between the emptying and the recount."""
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            tables = ", ".join(counted.table for counted in COUNTED)
            cursor.execute(f"LOCK TABLE {tables} IN SHARE MODE")
        execute_all(cursor, rebuild_sql(connection.vendor))
