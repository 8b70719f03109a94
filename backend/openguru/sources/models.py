import secrets
from pathlib import PurePath

from django.conf import settings
from django.db import models

from openguru.core.models import TimeStampedModel
from openguru.gurus.models import Guru


def source_upload_path(instance: "DataSource", filename: str) -> str:
    # A random directory per upload: a file's address cannot be guessed from its name.
    return f"sources/{secrets.token_urlsafe(24)}/{PurePath(filename).name}"


class DataSource(TimeStampedModel):
    class Type(models.TextChoices):
        WEBSITE = "website"
        PDF = "pdf"
        YOUTUBE = "youtube"
        GITHUB_REPO = "github_repo"
        GITHUB_ISSUES = "github_issues"  # issues and discussions of a repository
        CONFLUENCE = "confluence"  # a space or a page tree, Cloud or Data Center
        JIRA = "jira"  # Jira issues chosen by JQL (Cloud or Data Center)
        ZENDESK = "zendesk"  # a Zendesk Help Center's articles
        TEXT = "text"
        FAQ = "faq"
        # Uploaded files beyond PDFs (file_kinds.py): each its own type, handled as PDFs are.
        DOCX = "docx"
        PPTX = "pptx"
        XLSX = "xlsx"
        CSV = "csv"
        HTML = "html"
        MARKDOWN = "markdown"
        EPUB = "epub"

    class Status(models.TextChoices):
        NOT_PROCESSED = "NOT_PROCESSED"
        PROCESSING = "PROCESSING"
        SUCCESS = "SUCCESS"
        FAILED = "FAILED"

    class CrawlMode(models.TextChoices):
        SINGLE = "single"
        CRAWL = "crawl"
        SITEMAP = "sitemap"

    guru = models.ForeignKey(Guru, on_delete=models.CASCADE, related_name="sources")
    type = models.CharField(max_length=16, choices=Type.choices)
    url = models.CharField(max_length=2000)
    title = models.CharField(max_length=500, blank=True, default="")
    file = models.FileField(upload_to=source_upload_path, blank=True, default="")
    content = models.TextField(blank=True, default="")  # text and FAQ sources keep their body here
    options = models.JSONField(default=dict, blank=True)  # crawl depth/limits, include/exclude, ...
    crawl_mode = models.CharField(max_length=16, choices=CrawlMode.choices, default="single")
    private = models.BooleanField(default=False)
    # A connector's token (GitHub issues, Jira), encrypted (`core/crypto.py`); never sent back out.
    credential = models.TextField(blank=True, default="")
    # The documentation version it belongs to ("4.2", "latest"); "": every version
    # (`sources/versions.py`). Answers filter by the ids of a version's sources, so changing it
    # needs no re-index.
    version = models.CharField(max_length=32, blank=True, default="")

    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.NOT_PROCESSED, db_index=True
    )
    error = models.TextField(blank=True, default="")  # internal detail, for admins and logs
    user_error = models.CharField(max_length=500, blank=True, default="")
    progress = models.JSONField(default=dict, blank=True)  # pages/chunks counters while running
    last_result = models.JSONField(default=dict, blank=True)  # counters of the last finished run
    chunk_count = models.PositiveIntegerField(default=0)
    summary = models.TextField(blank=True, default="")

    # Claim: a worker sets these when it takes the source; a stale claim is requeued by beat.
    claimed_by = models.CharField(max_length=200, blank=True, default="")
    claimed_at = models.DateTimeField(null=True, blank=True)
    last_indexed_at = models.DateTimeField(null=True, blank=True)
    reindex_count = models.PositiveIntegerField(default=0)
    # Runs in a row that ended without finishing (their worker died): bounded by
    # SOURCE_MAX_CRASHED_RUNS, so a source that kills its worker is not retried forever.
    crashed_runs = models.PositiveIntegerField(default=0)
    # Validators and cache headers of fetched pages: {url: {"etag", "last_modified", "hash"}}.
    fetch_state = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["guru", "url"], name="unique_source_url_per_guru")
        ]

    def __str__(self) -> str:
        return f"{self.type}:{self.url}"


class EmbeddingCacheEntry(models.Model):
    """A vector computed once per (model, text hash): moved or repeated text is not re-embedded."""

    model = models.CharField(max_length=200)
    text_hash = models.CharField(max_length=64)
    vector = models.BinaryField()  # float32 little-endian

    class Meta:
        verbose_name_plural = "embedding cache entries"
        constraints = [
            models.UniqueConstraint(
                fields=["model", "text_hash"], name="unique_embedding_per_model"
            )
        ]

    def __str__(self) -> str:
        return f"{self.model}:{self.text_hash[:12]}"


class Crawl(TimeStampedModel):
    """A link discovery run from a start URL: it lists pages, indexes nothing."""

    class Status(models.TextChoices):
        RUNNING = "RUNNING"
        COMPLETED = "COMPLETED"
        STOPPED = "STOPPED"
        FAILED = "FAILED"

    guru = models.ForeignKey(Guru, on_delete=models.CASCADE, related_name="crawls")
    url = models.CharField(max_length=2000)
    link_limit = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    discovered_urls = models.JSONField(default=list, blank=True)
    error = models.CharField(max_length=500, blank=True, default="")
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    end_time = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"crawl:{self.url}"


class GitHubDelivery(TimeStampedModel):
    """A GitHub webhook delivery taken (its X-GitHub-Delivery id): a replayed or redelivered
    push is acknowledged without re-indexing again. Kept for GITHUB_DELIVERY_MEMORY."""

    guru = models.ForeignKey(Guru, on_delete=models.CASCADE, related_name="github_deliveries")
    delivery_id = models.CharField(max_length=100)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["guru", "delivery_id"], name="unique_github_delivery")
        ]
