"""Gurubase's public API v1 vocabulary: its source types and statuses, and its answer shape.
Clients written for Gurubase read these exact names, so they are mapped here and nowhere else."""

from typing import Any

from openguru.answers.models import Question
from openguru.sources.models import DataSource

SOURCE_TYPES = {
    DataSource.Type.WEBSITE: "WEBSITE",
    DataSource.Type.PDF: "PDF",
    DataSource.Type.YOUTUBE: "YOUTUBE",
    DataSource.Type.GITHUB_REPO: "GITHUB_REPO",
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


def trust_percent(score: float) -> int:
    """Gurubase reports trust as an integer from 0 to 100."""
    return max(0, min(100, round(score * 100)))


def answer_payload(answer: dict[str, Any], *, session_id: str | None) -> dict[str, Any]:
    """`answer`: the engine's `done` data, or `question_data` of a stored question."""
    return {
        "slug": answer["slug"],
        "content": answer["content"],
        "question": answer["question"],
        "date_updated": answer["date_updated"],
        "trust_score": trust_percent(answer["trust_score"]),
        "references": [
            {"link": r.get("link", ""), "icon": r.get("icon", ""), "title": r.get("title", "")}
            for r in answer["references"]
        ],
        "session_id": session_id,
    }


def widget_answer_payload(answer: dict[str, Any], *, icon_base: str) -> dict[str, Any]:
    """The answer as Gurubase's widget reads it: its references name their page `question`,
    and their `icon` is an image address (`icon_base` + the kind of source + ".svg")."""
    return {
        "slug": answer["slug"],
        "content": answer["content"],
        "question": answer["question"],
        "date_updated": answer["date_updated"],
        "trust_score": trust_percent(answer["trust_score"]),
        "references": [
            {
                "question": r.get("title", ""),
                "link": r.get("link", ""),
                "icon": f"{icon_base}{r['icon']}.svg" if r.get("icon") else "",
            }
            for r in answer["references"]
        ],
    }


def question_data(question: Question) -> dict[str, Any]:
    """A stored question in the fields `answer_payload` reads."""
    return {
        "id": question.pk,
        "slug": question.slug,
        "content": question.content,
        "question": question.question,
        "date_updated": question.updated_at.isoformat(),
        "trust_score": question.trust_score,
        "references": question.references,
    }
