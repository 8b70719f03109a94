"""manage.py guru_import <file.zip> [--slug NEW]: restore a guru_export archive.
manage.py guru_import <file.zip> --vectors-only: the guru's rows came back with a database dump
(scripts/restore.sh); embed the archive's chunks into its collection again."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from openguru.core.errors import DomainError
from openguru.ops.backup_import import RestoreProviders, guru_import, guru_vectors_restore
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.vectorstore.factory import get_vector_store


class Command(BaseCommand):
    help = (
        "Restore a guru from a guru_export archive; its chunks are embedded again with the "
        "configured embedder into a new collection. --vectors-only: the guru exists (restored "
        "from a database dump): rebuild its collection from the archive's chunks."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("archive", type=Path)
        parser.add_argument("--slug", default="", help="Restore under another name.")
        parser.add_argument(
            "--vectors-only",
            action="store_true",
            help="Only rebuild the existing guru's collection from the archive's chunks.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["vectors_only"] and options["slug"]:
            raise CommandError("--vectors-only restores into the archive's own guru: no --slug.")
        providers = RestoreProviders(embedder=get_embedder(), store=get_vector_store())
        try:
            if options["vectors_only"]:
                guru = guru_vectors_restore(archive_path=options["archive"], providers=providers)
                self.stdout.write(
                    f"Restored the vectors of {guru.slug}: {guru.sources.count()} sources."
                )
                return
            guru = guru_import(
                archive_path=options["archive"], providers=providers, slug=options["slug"]
            )
        except DomainError as exc:
            raise CommandError(exc.msg) from exc
        self.stdout.write(
            f"Imported {guru.slug}: {guru.sources.count()} sources, "
            f"{guru.questions.count()} questions."
        )
