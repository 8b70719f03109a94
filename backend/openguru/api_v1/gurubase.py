"""Gurubase's public API v1 vocabulary for sources: its source types and statuses. Clients
written for Gurubase read these exact names, so they are mapped here and nowhere else (its
answer shapes: `answers/channels/gurubase.py`)."""

from openguru.sources.models import DataSource

SOURCE_TYPES = {
    DataSource.Type.WEBSITE: "WEBSITE",
    DataSource.Type.PDF: "PDF",
    DataSource.Type.YOUTUBE: "YOUTUBE",
    DataSource.Type.GITHUB_REPO: "GITHUB_REPO",
    DataSource.Type.GITHUB_ISSUES: "GITHUB_ISSUES",
    DataSource.Type.CONFLUENCE: "CONFLUENCE",
    DataSource.Type.JIRA: "JIRA",
    DataSource.Type.ZENDESK: "ZENDESK",
    DataSource.Type.TEXT: "TEXT",
    DataSource.Type.FAQ: "FAQ",
    # Uploaded files beyond PDFs, named as the PDF type is: the format in capitals.
    DataSource.Type.DOCX: "DOCX",
    DataSource.Type.PPTX: "PPTX",
    DataSource.Type.XLSX: "XLSX",
    DataSource.Type.CSV: "CSV",
    DataSource.Type.HTML: "HTML",
    DataSource.Type.MARKDOWN: "MARKDOWN",
    DataSource.Type.EPUB: "EPUB",
}
V1_SOURCE_TYPE_NAMES = sorted(SOURCE_TYPES.values())

# Gurubase has no "in progress" status: ours is NOT_PROCESSED with `progress` alongside.
SOURCE_STATUSES = {
    DataSource.Status.NOT_PROCESSED: "NOT_PROCESSED",
    DataSource.Status.PROCESSING: "NOT_PROCESSED",
    DataSource.Status.SUCCESS: "SUCCESS",
    DataSource.Status.FAILED: "FAIL",
}
