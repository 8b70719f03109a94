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
        "github_issues, confluence, jira, zendesk, text, faq, or a file: pdf, docx, pptx, xlsx, "
        "csv, html, markdown, epub) and show its progress."
    )

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        # Our --version (the documentation version) replaces Django's (its own version).
        return super().create_parser(prog_name, subcommand, conflict_handler="resolve", **kwargs)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("guru", help="guru slug")
        parser.add_argument("type", choices=DataSource.Type.values)
        parser.add_argument("target", help="URL, or a file path for files and text/faq")
        parser.add_argument("--title", default="")
        parser.add_argument("--private", action="store_true", help="a file: searchable, unlinked")
        parser.add_argument(
            "--version", default="", help='the documentation version ("4.2", "latest")'
        )
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--crawl", action="store_true", help="crawl the site from the URL")
        mode.add_argument("--sitemap", action="store_true", help="read the URL as a sitemap")
        parser.add_argument("--max-pages", type=int, default=0)
        parser.add_argument(
            "--token-env",
            default="",
            help="the environment variable holding the connector's token (never on the "
            "command line)",
        )
        issues = parser.add_argument_group("github_issues")
        issues.add_argument("--state", choices=["all", "open", "closed"], default="all")
        issues.add_argument("--labels", default="", help="comma-separated; an item needs all")
        issues.add_argument("--since", default="", help="ISO date: only items updated since")
        issues.add_argument("--no-discussions", action="store_true")
        connectors = parser.add_argument_group(
            "confluence, jira (target: the site's base URL), zendesk (the subdomain or its URL)"
        )
        connectors.add_argument("--deployment", choices=["cloud", "datacenter"], default="cloud")
        connectors.add_argument("--email", default="", help="the API token's account (Cloud)")
        connectors.add_argument("--space", default="", help="confluence: a space key")
        connectors.add_argument("--root-page", default="", help="confluence: a page and children")
        connectors.add_argument("--no-attachments", action="store_true", help="confluence: no PDFs")
        connectors.add_argument("--jql", default="", help="jira: the issues, project = DOCS")
        connectors.add_argument("--locale", default="en-us", help="zendesk")
        connectors.add_argument("--sections", default="", help="zendesk: section ids, a,b")
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
                guru=guru,
                upload=upload,
                title=options["title"],
                private=options["private"],
                version=options["version"],
            )
        if kind in (DataSource.Type.TEXT, DataSource.Type.FAQ):
            content = Path(target).read_text(encoding="utf-8")
            return source_create(
                guru=guru,
                type=kind,
                content=content,
                title=options["title"],
                version=options["version"],
            )
        if kind == DataSource.Type.GITHUB_ISSUES:
            return self._create_issues(guru, target, options)
        if kind == DataSource.Type.CONFLUENCE:
            return self._create_confluence(guru, target, options)
        if kind == DataSource.Type.JIRA:
            return self._create_jira(guru, target, options)
        if kind == DataSource.Type.ZENDESK:
            return self._create_connector(
                guru,
                kind,
                target,
                options,
                locale=options["locale"],
                section_ids=options["sections"],
                email=options["email"],
            )
        crawl_mode = "crawl" if options["crawl"] else "sitemap" if options["sitemap"] else "single"
        extra = {"max_pages": options["max_pages"]} if options["max_pages"] else {}
        return source_create(
            guru=guru,
            type=kind,
            url=target,
            title=options["title"],
            crawl_mode=crawl_mode,
            options=extra,
            version=options["version"],
        )

    def _token(self, options: dict[str, Any]) -> str:
        if not options["token_env"]:
            return ""
        # The variable the operator named, read like any setting (never on the command line).
        token = str(env.str(options["token_env"], default=""))
        if not token:
            raise CommandError(f"The environment variable {options['token_env']} is empty.")
        return token

    def _create_confluence(self, guru: Guru, url: str, options: dict[str, Any]) -> DataSource:
        return self._create_connector(
            guru,
            DataSource.Type.CONFLUENCE,
            url,
            options,
            deployment=options["deployment"],
            space=options["space"],
            root_page=options["root_page"],
            email=options["email"],
            attachments=not options["no_attachments"],
        )

    def _create_jira(self, guru: Guru, url: str, options: dict[str, Any]) -> DataSource:
        return self._create_connector(
            guru,
            DataSource.Type.JIRA,
            url,
            options,
            deployment=options["deployment"],
            jql=options["jql"],
            email=options["email"],
        )

    def _create_connector(
        self, guru: Guru, kind: str, url: str, options: dict[str, Any], **connector: Any
    ) -> DataSource:
        return source_create(
            guru=guru,
            type=kind,
            url=url,
            title=options["title"],
            private=options["private"],
            token=self._token(options),
            version=options["version"],
            options=connector,
        )

    def _create_issues(self, guru: Guru, url: str, options: dict[str, Any]) -> DataSource:
        return self._create_connector(
            guru,
            DataSource.Type.GITHUB_ISSUES,
            url,
            options,
            state=options["state"],
            labels=options["labels"],
            since=options["since"],
            discussions=not options["no_discussions"],
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
