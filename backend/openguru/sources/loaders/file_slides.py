"""PowerPoint (.pptx) loader, through python-pptx: one document per slide (its title, every text
frame and table, grouped shapes included, and the speaker notes), linked as `deck.pptx#slide-N`."""

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pptx
from pptx.enum.shapes import MSO_SHAPE_TYPE

from openguru.sources.loaders.base import (
    Document,
    LoadProgress,
    LoadRequest,
    LoadResult,
    ProgressCallback,
)
from openguru.sources.loaders.file_common import (
    check_file,
    check_zip,
    clean_text,
    file_link,
    nothing_to_index,
    own_title,
    parsed,
)

LABEL = "PowerPoint presentation"


class PptxLoader:
    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        path = Path(request.file_path)
        check_file(path, LABEL)
        check_zip(path, LABEL)
        deck = parsed(LABEL, lambda: pptx.Presentation(str(path)))
        deck_title = (
            own_title(lambda: deck.core_properties.title, LABEL) or request.title or path.name
        )
        # Read now, not lazily: "nothing to index" is known before the indexer starts.
        documents = parsed(LABEL, lambda: _slide_documents(deck, deck_title, request, on_progress))
        if not documents:
            raise nothing_to_index(LABEL)
        return LoadResult(documents=iter(documents))


def _slide_documents(
    deck: Any, deck_title: str, request: LoadRequest, on_progress: ProgressCallback
) -> list[Document]:
    progress = LoadProgress(discovered=len(deck.slides))
    on_progress(progress)
    documents = []
    for number, slide in enumerate(deck.slides, start=1):
        heading = clean_text(slide.shapes.title.text) if slide.shapes.title is not None else ""
        lines = [line for line in _texts(slide.shapes) if line != heading]
        if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
            notes = clean_text(slide.notes_slide.notes_text_frame.text)
            lines += [f"Notes: {notes}"] if notes else []
        progress.fetched += 1
        on_progress(progress)
        if not heading and not lines:
            continue
        name = f"Slide {number}" + (f": {heading}" if heading else "")
        documents.append(
            Document(
                title=f"{deck_title} — {name}",
                link=file_link(request, f"slide-{number}"),
                text="\n\n".join([name, *lines]),
                format="text",
                metadata={"slide": number},
            )
        )
    return documents


def _texts(shapes: Iterable[Any]) -> Iterator[str]:
    for shape in shapes:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            yield from _texts(shape.shapes)
        elif shape.has_text_frame:
            yield from filter(None, (clean_text(p.text) for p in shape.text_frame.paragraphs))
        elif getattr(shape, "has_table", False):
            for row in shape.table.rows:
                cells = [clean_text(cell.text) for cell in row.cells]
                if any(cells):
                    yield " | ".join(cells)
