"""Gurubase's answer shapes, which its clients (API v1's and the widget's) read by these exact
names, and the saved answer such a client fetches once a stream has ended (`fetch_existing`)."""

from typing import Any

from openguru.answers.channels.prepare import Prepared
from openguru.answers.models import Question
from openguru.answers.selectors import question_find_in_binge, question_find_same
from openguru.core.errors import DomainError, ErrorCode


def trust_percent(score: float) -> int:
    """Gurubase reports trust as an integer from 0 to 100."""
    return max(0, min(100, round(score * 100)))


def _answer_fields(answer: dict[str, Any]) -> dict[str, Any]:
    """What every Gurubase answer shape says first."""
    return {
        "slug": answer["slug"],
        "content": answer["content"],
        "question": answer["question"],
        "date_updated": answer["date_updated"],
        "trust_score": trust_percent(answer["trust_score"]),
    }


def answer_payload(answer: dict[str, Any], *, session_id: str | None) -> dict[str, Any]:
    """`answer`: the engine's `done` data, or `question_data` of a stored question."""
    return {
        **_answer_fields(answer),
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
        **_answer_fields(answer),
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


def saved_answer(prepared: Prepared) -> dict[str, Any]:
    """Blocking. The stored answer to the question asked (in its session, if one is named),
    as `question_data`; typically fetched right after its stream."""
    text = prepared.request.question
    if prepared.binge is not None:
        question = question_find_in_binge(binge=prepared.binge, text=text)
    else:
        question = question_find_same(guru=prepared.guru, text=text)
    if question is None:
        raise DomainError(ErrorCode.QUESTION_NOT_FOUND, "This question has not been answered yet.")
    return question_data(question)
