"""Chunks of a sectioned page (HTML or Markdown): each section's chunks carry its heading path
and link to its anchor."""

from collections.abc import Iterable
from dataclasses import dataclass

from openguru.sources.chunking.base import Draft, Limits
from openguru.sources.chunking.sizing import fit, prose_splitter
from openguru.sources.loaders.base import Document


@dataclass(frozen=True)
class Section:
    anchor: str
    headings: tuple[str, ...]  # below the page title
    body: str


def section_drafts(document: Document, sections: Iterable[Section], limits: Limits) -> list[Draft]:
    drafts: list[Draft] = []
    for section in sections:
        path = _heading_path(document.title, section.headings)
        link = _link_with_anchor(document.link, section.anchor)
        own_heading = section.headings[-1] if section.headings else ""
        metadata = {"heading_path": path, "anchor": section.anchor}
        for text, body in fit(path, section.body, limits, prose_splitter):
            measure = len(own_heading) + len(body)
            drafts.append(Draft(text=text, link=link, measure=measure, metadata=metadata))
    return drafts


def _heading_path(title: str, headings: Iterable[str]) -> str:
    parts = [title] if title else []
    for position, heading in enumerate(headings):
        # A page's h1 usually repeats its <title> ("Built-in Functions — Python 3.11 docs").
        repeats_title = position == 0 and title.casefold().startswith(heading.casefold())
        if heading and not repeats_title and heading != (parts[-1] if parts else ""):
            parts.append(heading)
    return " > ".join(parts)


def _link_with_anchor(link: str, anchor: str) -> str:
    if not link or not anchor:
        return link
    return f"{link.split('#', 1)[0]}#{anchor}"
