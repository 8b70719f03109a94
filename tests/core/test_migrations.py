"""The migrations match the models, and each app's migrations form one line (two branches that
each add a migration must be put in order before they land)."""

import pytest
from django.core.management import call_command
from django.db.migrations.loader import MigrationLoader

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]


def test_no_app_has_two_leaf_migrations():
    conflicts = MigrationLoader(None, ignore_no_migrations=True).detect_conflicts()
    assert conflicts == {}


def test_the_models_need_no_new_migration():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
