"""Loaders for sources whose body is stored on the row: free text (markdown) and FAQ pairs."""

import json
import re
from dataclasses import dataclass

from django.conf import settings

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.anchors import github_slug
from openguru.sources.loaders.base import (
    Document,
    LoadProgress,
    LoadRequest,
    LoadResult,
    ProgressCallback,
)

_FAQ_FORMAT_HINT = (
    'Use a JSON list like [{"question": "...", "answer": "..."}] or plain text with '
    '"Q: ..." and "A: ..." lines.'
)


class TextLoader:
    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        content = _checked_content(request)
        on_progress(LoadProgress(discovered=1, fetched=1))
        document = Document(
            title=request.title or _first_heading(content) or "Text",
            link=_public_link(request),
            text=content,
            format="markdown",
        )
        return LoadResult(documents=iter([document]))


class FaqLoader:
    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        pairs = parse_faq(_checked_content(request))
        on_progress(LoadProgress(discovered=len(pairs), fetched=len(pairs)))
        link = _public_link(request)
        anchors: dict[str, int] = {}
        documents = [
            Document(
                title=pair.question,
                link=_faq_link(link, pair.question, anchors),
                text=f"Q: {pair.question}\nA: {pair.answer}",
                format="faq",
            )
            for pair in pairs
        ]
        return LoadResult(documents=iter(documents))


@dataclass(frozen=True)
class FaqPair:
    question: str
    answer: str


def parse_faq(content: str) -> list[FaqPair]:
    """FAQ pairs from a JSON list of {"question", "answer"} or from "Q: … A: …" text."""
    stripped = content.lstrip()
    pairs = _json_pairs(stripped) if stripped.startswith(("[", "{")) else _qa_text_pairs(content)
    if not pairs:
        raise DomainError(ErrorCode.INVALID_INPUT, f"No FAQ entries found. {_FAQ_FORMAT_HINT}")
    return pairs


def _json_pairs(content: str) -> list[FaqPair]:
    try:
        data = json.loads(content)
    except json.JSONDecodeError as exc:
        raise DomainError(
            ErrorCode.INVALID_INPUT, f"The FAQ is not valid JSON. {_FAQ_FORMAT_HINT}"
        ) from exc
    except RecursionError as exc:  # lists in lists a hundred thousand deep
        raise DomainError(
            ErrorCode.INVALID_INPUT, f"The FAQ's JSON nests too deeply. {_FAQ_FORMAT_HINT}"
        ) from exc
    if not isinstance(data, list):
        raise DomainError(ErrorCode.INVALID_INPUT, f"The FAQ must be a list. {_FAQ_FORMAT_HINT}")
    pairs = []
    for position, item in enumerate(data, start=1):
        question = item.get("question") if isinstance(item, dict) else None
        answer = item.get("answer") if isinstance(item, dict) else None
        if not (isinstance(question, str) and _readable(question)) or not (
            isinstance(answer, str) and _readable(answer)
        ):
            raise DomainError(
                ErrorCode.INVALID_INPUT,
                f"FAQ entry {position} needs a non-empty question and answer. {_FAQ_FORMAT_HINT}",
            )
        pairs.append(FaqPair(question=_readable(question), answer=_readable(answer)))
    return pairs


def _readable(value: str) -> str:
    # JSON may spell a NUL ("\u0000"); it means nothing in a FAQ and PostgreSQL cannot store it.
    return value.replace("\x00", "").strip()


_QA_MARKER = re.compile(
    r"^[ \t]*(Q|A|Question|Answer)[ \t]*[:.][ \t]?", re.IGNORECASE | re.MULTILINE
)


def _qa_text_pairs(content: str) -> list[FaqPair]:
    markers = list(_QA_MARKER.finditer(content))
    if not markers or content[: markers[0].start()].strip():
        return []  # text before the first "Q:" means this is not the Q/A format
    parts = []
    for marker, following in zip(markers, [*markers[1:], None], strict=True):
        end = following.start() if following else len(content)
        parts.append((marker.group(1)[0].upper(), content[marker.end() : end].strip()))
    pairs = []
    for index in range(0, len(parts), 2):
        question, answer = parts[index], parts[index + 1] if index + 1 < len(parts) else None
        if question[0] != "Q" or answer is None or answer[0] != "A" or not question[1]:
            raise DomainError(
                ErrorCode.INVALID_INPUT,
                f"Every question needs an answer right after it. {_FAQ_FORMAT_HINT}",
            )
        if not answer[1]:
            raise DomainError(ErrorCode.INVALID_INPUT, f"The answer to {question[1]!r} is empty.")
        pairs.append(FaqPair(question=question[1], answer=answer[1]))
    return pairs


def _checked_content(request: LoadRequest) -> str:
    if len(request.content.encode()) > settings.SOURCE_TEXT_MAX_BYTES:
        limit_mb = settings.SOURCE_TEXT_MAX_BYTES / (1024 * 1024)
        raise DomainError(ErrorCode.FILE_TOO_LARGE, f"The text is larger than {limit_mb:g} MB.")
    # The API refuses NUL bytes; a body stored another way (a script, an import) may hold some,
    # and chunks quoted in answers must be storable in PostgreSQL.
    content = request.content.replace("\x00", "")
    if not content.strip():
        raise DomainError(ErrorCode.NOTHING_TO_INDEX, "The text is empty.")
    return content


def _public_link(request: LoadRequest) -> str:
    return "" if request.private else request.url


def _faq_link(link: str, question: str, anchors: dict[str, int]) -> str:
    """The source link with the question's slug: FAQ pages usually give each question that
    anchor, and distinct links keep each pair a unit of its own for the indexer."""
    if not link:
        return ""
    slug = github_slug(question) or "faq"
    seen = anchors.get(slug, 0)
    anchors[slug] = seen + 1
    return f"{link.split('#', 1)[0]}#{slug if seen == 0 else f'{slug}-{seen}'}"


_FIRST_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


def _first_heading(content: str) -> str:
    match = _FIRST_HEADING.search(content)
    return match.group(1).strip() if match else ""
