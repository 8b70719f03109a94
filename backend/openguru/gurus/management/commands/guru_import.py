"""manage.py guru_import <file.zip> [--slug NEW]: restore a guru_export archive."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from openguru.core.errors import DomainError
from openguru.gurus.backup_import import guru_import


class Command(BaseCommand):
    help = (
        "Restore a guru from a guru_export archive; its chunks are embedded again with the "
        "configured embedder into a new collection."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("archive", type=Path)
        parser.add_argument("--slug", default="", help="Restore under another name.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            guru = guru_import(archive_path=options["archive"], slug=options["slug"])
        except DomainError as exc:
            raise CommandError(exc.msg) from exc
        self.stdout.write(
            f"Imported {guru.slug}: {guru.sources.count()} sources, "
            f"{guru.questions.count()} questions."
        )
