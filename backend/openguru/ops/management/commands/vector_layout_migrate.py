"""manage.py vector_layout_migrate: every guru from a Milvus collection of its own into the
collection shared by its embedding dimension (VECTOR_LAYOUT=shared), answering all along."""

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from openguru.core.errors import DomainError
from openguru.gurus.models import Guru
from openguru.ops.vector_layout import guru_own_collection_drop, guru_vector_layout_migrate
from openguru.providers.vectorstore.base import LayoutMigration
from openguru.providers.vectorstore.factory import get_vector_store


class Command(BaseCommand):
    help = (
        "Copy each guru's chunks from its own Milvus collection into the shared one "
        "(VECTOR_LAYOUT=shared), switch it there, then drop the old collections. Gurus keep "
        "answering throughout; run it after every process has restarted with the new setting."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--grace-seconds",
            type=float,
            # A search that found an old collection just before its switch finishes (or times
            # out) within MILVUS_SEARCH_TIMEOUT_SECONDS: only then is that collection dropped.
            default=None,
            help="Wait between the last switch and the drops (default: the search timeout + 1).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        store = get_vector_store()
        if not isinstance(store, LayoutMigration):
            raise CommandError("Set VECTOR_LAYOUT=shared (with VECTOR_STORE=milvus) first.")
        grace = options["grace_seconds"]
        if grace is None:
            grace = settings.MILVUS_SEARCH_TIMEOUT_SECONDS + 1
        moved: list[Guru] = []
        failed: list[str] = []
        for guru in Guru.objects.order_by("slug"):
            try:
                chunks = guru_vector_layout_migrate(guru=guru, store=store)
            except DomainError as error:
                self.stderr.write(f"{guru.slug}: not moved: {error.msg}")
                failed.append(guru.slug)
                continue
            if chunks is None:
                self.stdout.write(f"{guru.slug}: nothing to move")
            else:
                self.stdout.write(f"{guru.slug}: moved {chunks} chunks")
                moved.append(guru)
        if moved:
            time.sleep(max(0.0, grace))
        for guru in moved:
            guru_own_collection_drop(guru=guru, store=store)
        self.stdout.write(f"{len(moved)} moved, old collections dropped")
        if failed:
            raise CommandError(f"Not moved: {', '.join(failed)}. Run again for these.")
