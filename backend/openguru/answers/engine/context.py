"""Turn kept candidates into prompt contexts and references.

Chunks of the same section of the same source are merged into one context (Gurubase's
merge_splits), ordered by their position in the section, so the model reads a section as written.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from openguru.answers.engine.fusion import Candidate
from openguru.sources.chunking.sizing import elided


@dataclass
class Context:
    source_id: int
    title: str
    link: str
    type: str
    relevance: float
    parts: list[tuple[float, str]] = field(default_factory=list)  # (position, text)
    headings: set[str] = field(default_factory=set)  # its chunks' heading paths

    @property
    def text(self) -> str:
        """What the answer LLM reads: every chunk whole, heading-path prefix included."""
        return "\n...\n".join(text for _, text in sorted(self.parts, key=lambda p: p[0]))

    @property
    def body_text(self) -> str:
        """The chunks without the heading-path prefix the chunker puts first for the embedder:
        what may be quoted as the sources' own words."""
        return "\n...\n".join(
            without_prefix(text, self.headings)
            for _, text in sorted(self.parts, key=lambda p: p[0])
        )


def without_prefix(text: str, headings: set[str]) -> str:
    """`text` without a first paragraph that is one of `headings`, as the chunker wrote it:
    whole, shortened to "first > … > last", or cut to fit the chunk's budget."""
    head, separator, body = text.partition("\n\n")
    head = head.strip()
    if separator and head and any(_written_as(heading, head) for heading in headings):
        return body
    return text


def _written_as(heading: str, head: str) -> bool:
    return heading.startswith(head) or elided(heading).startswith(head)


def _public_link(link: str) -> str:
    """Only web links and site-relative paths are shown; `text://…` ids of pasted text are not."""
    return link if link.startswith(("http://", "https://", "/")) else ""


def _position(metadata: dict[str, Any]) -> float:
    for key in ("chunk_index", "start_line", "start_s", "page"):
        if isinstance(metadata.get(key), int | float):
            return float(metadata[key])
    return 0.0


def build_contexts(kept: Sequence[Candidate], *, max_text: int, max_code: int) -> list[Context]:
    merged: dict[tuple[int, str], Context] = {}
    for candidate in kept:
        hit = candidate.hit
        link = _public_link(str(hit.metadata.get("link", "")))
        key = (hit.source_id, link or str(hit.metadata.get("title", hit.id)))
        context = merged.get(key)
        if context is None:
            context = Context(
                source_id=hit.source_id,
                title=str(hit.metadata.get("title") or link or "Source"),
                link=link,
                type=hit.type,
                relevance=candidate.relevance,
            )
            merged[key] = context
        context.parts.append((_position(hit.metadata), hit.text))
        if hit.metadata.get("heading_path"):
            context.headings.add(str(hit.metadata["heading_path"]))
        context.relevance = max(context.relevance, candidate.relevance)
    ranked = sorted(merged.values(), key=lambda c: c.relevance, reverse=True)
    code = [c for c in ranked if c.type == "code"][:max_code]
    text = [c for c in ranked if c.type != "code"][:max_text]
    return sorted(code + text, key=lambda c: c.relevance, reverse=True)


def answer_contexts(kept: Sequence[Candidate]) -> list[Context]:
    """The contexts an answer reads: the top RETRIEVAL_TOP_TEXT text and RETRIEVAL_TOP_CODE code."""
    return build_contexts(
        kept, max_text=settings.RETRIEVAL_TOP_TEXT, max_code=settings.RETRIEVAL_TOP_CODE
    )


# What a channel draws beside a reference: the kind of source it came from.
_ICONS = {
    "website": "web",
    "pdf": "pdf",
    "youtube": "youtube",
    "github_repo": "github",
    "text": "text",
    "faq": "faq",
    # Other uploaded files: the channels draw a document for "text" (no icon of their own).
    **dict.fromkeys(("docx", "pptx", "xlsx", "csv", "html", "markdown", "epub"), "text"),
}


def references_for(
    contexts: Sequence[Context], *, source_types: Mapping[int, str]
) -> list[dict[str, str]]:
    """Sources shown under an answer; private or pasted sources have a title but no link.
    `source_types` maps source ids to their type; a source deleted meanwhile counts as "web"."""
    seen: set[tuple[str, str]] = set()
    references = []
    for context in contexts:
        if (context.title, context.link) not in seen:
            seen.add((context.title, context.link))
            icon = _ICONS.get(source_types.get(context.source_id, ""), "web")
            references.append({"title": context.title, "link": context.link, "icon": icon})
    return references
