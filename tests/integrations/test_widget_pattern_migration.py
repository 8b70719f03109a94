"""Widget ids made when an empty pattern meant "any site" keep serving every site: the data
migration writes "*" for them."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.gurus.helpers import guru_make

pytestmark = [pytest.mark.django_db(transaction=True)]

BEFORE = [("integrations", "0003_slack_event_sent_at")]
AFTER = [("integrations", "0004_widget_any_site_explicit")]


def test_empty_patterns_become_a_star_and_others_stay():
    guru = guru_make(slug="docs", name="Docs")
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("integrations", "WidgetId")
    old.objects.create(guru_id=guru.pk, key="empty", domain_pattern="")
    old.objects.create(guru_id=guru.pk, key="named", domain_pattern="https://docs.example.com")

    executor = MigrationExecutor(connection)  # the graph again, as `migrate` reads it
    try:
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps.get_model("integrations", "WidgetId")
        patterns = dict(new.objects.values_list("key", "domain_pattern"))
        assert patterns == {"empty": "*", "named": "https://docs.example.com"}
    finally:
        # Back to the newest schema: the tests after this one need the later migrations.
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
