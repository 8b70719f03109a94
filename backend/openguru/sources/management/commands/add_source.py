"""Add a source to a guru and follow its progress in the terminal."""

import time
from pathlib import Path
from typing import Any

from config.env import env
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from openguru.core.errors import DomainError
from openguru.gurus.models import Guru
from openguru.gurus.selectors import guru_get
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.file_kinds import file_kind_for_name, file_kind_for_type
from openguru.sources.models import DataSource
from openguru.sources.processing import source_process
from openguru.sources.services import source_create, source_create_upload

FINISHED = (DataSource.Status.SUCCESS, DataSource.Status.FAILED)


class Command(BaseCommand):
    help = (
        "Add a source (website, youtube: a video, playlist or channel URL, github_repo, "
        "github_issues, text, faq, or a file: pdf, docx, pptx, xlsx, csv, html, markdown, epub) "
        "and show its progress."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("guru", help="guru slug")
        parser.add_argument("type", choices=DataSource.Type.values)
        parser.add_argument("target", help="URL, or a file path for files and text/faq")
        parser.add_argument("--title", default="")
        parser.add_argument("--private", action="store_true", help="a file: searchable, unlinked")
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--crawl", action="store_true", help="crawl the site from the URL")
        mode.add_argument("--sitemap", action="store_true", help="read the URL as a sitemap")
        parser.add_argument("--max-pages", type=int, default=0)
        issues = parser.add_argument_group("github_issues")
        issues.add_argument(
            "--token-env",
            default="",
            help="the environment variable holding the GitHub token (never on the command line)",
        )
        issues.add_argument("--state", choices=["all", "open", "closed"], default="all")
        issues.add_argument("--labels", default="", help="comma-separated; an item needs all")
        issues.add_argument("--since", default="", help="ISO date: only items updated since")
        issues.add_argument("--no-discussions", action="store_true")
        parser.add_argument(
            "--inline", action="store_true", help="index in this process instead of a worker"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            source = self._create(options)
        except DomainError as exc:
            raise CommandError(exc.msg) from exc
        self.stdout.write(f"Source {source.pk} added to '{options['guru']}'.")
        if options["inline"]:
            source_process(
                source_id=source.pk,
                token=f"cli-{source.pk}",
                embedder=get_embedder(),
                store=get_vector_store(),
                heartbeat_seconds=settings.SOURCE_HEARTBEAT_SECONDS,  # a long run stays alive
            )
        self._follow(source.pk)

    def _create(self, options: dict[str, Any]) -> DataSource:
        guru = guru_get(slug=options["guru"])
        kind, target = options["type"], options["target"]
        if file_kind := file_kind_for_type(kind):
            path = Path(target)
            if file_kind_for_name(path.name) != file_kind:
                raise CommandError(
                    f"A {kind} source needs a file ending in {file_kind.extensions[0]}."
                )
            upload = SimpleUploadedFile(path.name, path.read_bytes(), file_kind.content_type)
            return source_create_upload(
                guru=guru, upload=upload, title=options["title"], private=options["private"]
            )
        if kind in (DataSource.Type.TEXT, DataSource.Type.FAQ):
            content = Path(target).read_text(encoding="utf-8")
            return source_create(guru=guru, type=kind, content=content, title=options["title"])
        if kind == DataSource.Type.GITHUB_ISSUES:
            return self._create_issues(guru, target, options)
        crawl_mode = "crawl" if options["crawl"] else "sitemap" if options["sitemap"] else "single"
        extra = {"max_pages": options["max_pages"]} if options["max_pages"] else {}
        return source_create(
            guru=guru,
            type=kind,
            url=target,
            title=options["title"],
            crawl_mode=crawl_mode,
            options=extra,
        )

    def _create_issues(self, guru: Guru, url: str, options: dict[str, Any]) -> DataSource:
        token = ""
        if options["token_env"]:
            # The variable the operator named, read like any setting (never on the command line).
            token = env.str(options["token_env"], default="")
            if not token:
                raise CommandError(f"The environment variable {options['token_env']} is empty.")
        return source_create(
            guru=guru,
            type=DataSource.Type.GITHUB_ISSUES,
            url=url,
            title=options["title"],
            private=options["private"],
            token=token,
            options={
                "state": options["state"],
                "labels": options["labels"],
                "since": options["since"],
                "discussions": not options["no_discussions"],
            },
        )

    def _follow(self, source_id: int) -> None:
        with tqdm(total=0, unit="chunk", desc="waiting for a worker") as bar:
            while True:
                source = DataSource.objects.get(pk=source_id)
                progress = source.progress or {}
                if source.status == DataSource.Status.PROCESSING:
                    bar.set_description(
                        f"pages {progress.get('pages_fetched', 0)}"
                        f"/{progress.get('pages_discovered', 0)}"
                    )
                bar.total = max(bar.total or 0, progress.get("chunks_total", 0))
                bar.n = progress.get("chunks_total", 0)
                bar.refresh()
                if source.status in FINISHED:
                    break
                time.sleep(0.5)
        if source.status == DataSource.Status.FAILED:
            raise CommandError(f"Failed: {source.user_error}")
        self.stdout.write(self.style.SUCCESS(f"Indexed: {source.last_result}"))
