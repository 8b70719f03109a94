"""The rollup triggers across SQLite migrations. SQLite alters a table by building a copy,
dropping the original and renaming the copy: the drop takes the triggers *on* that table with it
(the guru's delete trigger), and the rename fails while a trigger on another table names it
(the counted tables' delete triggers name `gurus_guru`). So on SQLite the triggers are dropped
before migrations run and installed again after them; PostgreSQL alters tables in place."""

from typing import Any

from django.db import connections
from django.db.models.signals import post_migrate, pre_migrate

from openguru.answers.analytics.rollup_sql import (
    COUNTED,
    ROLLUP_TABLES,
    execute_all,
    triggers_drop_sql,
    triggers_sql,
)


def _sqlite(using: str) -> Any:
    connection = connections[using]
    return connection if connection.vendor == "sqlite" else None


def _drop_before(*, using: str, **_: Any) -> None:
    connection = _sqlite(using)
    if connection is None:
        return
    with connection.cursor() as cursor:
        execute_all(cursor, triggers_drop_sql("sqlite"))


def _install_after(*, using: str, **_: Any) -> None:
    connection = _sqlite(using)
    if connection is None:
        return
    needed = {*ROLLUP_TABLES, *(counted.table for counted in COUNTED), "gurus_guru"}
    if not needed <= set(connection.introspection.table_names()):
        return  # migrated to a point before the rollups: their migration installs them
    with connection.cursor() as cursor:
        execute_all(cursor, triggers_sql("sqlite"))


def rollup_triggers_follow_migrations(sender: Any) -> None:
    pre_migrate.connect(_drop_before, sender=sender, dispatch_uid="og_rollup_triggers_drop")
    post_migrate.connect(_install_after, sender=sender, dispatch_uid="og_rollup_triggers_add")
