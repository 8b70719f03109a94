"""The rollups' triggers and their first counts: after 0010, whose unique keys (the upserts'
conflict targets) PostgreSQL only creates at the end of that migration."""

from django.db import migrations

from openguru.answers.analytics.rollup_sql import (
    execute_all,
    rebuild_sql,
    triggers_drop_sql,
    triggers_sql,
)


def _install(apps, schema_editor):
    """The triggers, then the counts of the rows already there (a big table: a minute or so)."""
    vendor = schema_editor.connection.vendor
    with schema_editor.connection.cursor() as cursor:
        # On SQLite the triggers come once every migration has run (rollup_migrations.py):
        # a later migration rebuilding a table they name would fail.
        if vendor != "sqlite":
            execute_all(cursor, triggers_sql(vendor))
        execute_all(cursor, rebuild_sql(vendor))


def _uninstall(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        execute_all(cursor, triggers_drop_sql(schema_editor.connection.vendor))


class Migration(migrations.Migration):
    dependencies = [("answers", "0010_daily_rollups")]

    operations = [migrations.RunPython(_install, _uninstall)]
