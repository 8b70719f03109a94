"""manage.py guru_export <slug> --out <file.zip>: one guru, restorable with guru_import."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from openguru.gurus.backup_export import guru_export
from openguru.gurus.models import Guru


class Command(BaseCommand):
    help = (
        "Write a guru (sources with their chunks and files, questions and answers, sessions, "
        "votes, widget ids) to a zip file that guru_import restores."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--out", required=True, type=Path, help="The zip file to write.")

    def handle(self, *args: Any, **options: Any) -> None:
        guru = Guru.objects.filter(slug=options["slug"]).first()
        if guru is None:
            raise CommandError(f"No guru named '{options['slug']}'.")
        summary = guru_export(guru=guru, out=options["out"])
        self.stdout.write(
            f"Exported {guru.slug} to {options['out']}: {summary.sources} sources "
            f"({summary.chunks} chunks, {summary.files} files), {summary.questions} questions."
        )
