"""A Loader over corpus records, so evaluation corpora go through the real ingestion path."""

from collections.abc import Iterable, Iterator

from openguru.evaluation.datasets import CorpusRecord
from openguru.sources.loaders.base import (
    Document,
    LoadProgress,
    LoadRequest,
    LoadResult,
    ProgressCallback,
)

PROGRESS_EVERY_RECORDS = 200


def record_document(record: CorpusRecord) -> Document:
    """One plain-text document per record; its id rides along in every chunk's metadata."""
    return Document(
        title=record.title,
        link=record.url or record.doc_id,
        text=record.text,
        format="text",
        metadata={"doc_id": record.doc_id, "page": record.page},
    )


class CorpusLoader:
    def __init__(self, records: Iterable[CorpusRecord]) -> None:
        self._records = records

    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        return LoadResult(documents=self._documents(on_progress))

    def _documents(self, on_progress: ProgressCallback) -> Iterator[Document]:
        progress = LoadProgress()
        for record in self._records:
            progress.discovered += 1
            progress.fetched += 1
            yield record_document(record)
            if progress.fetched % PROGRESS_EVERY_RECORDS == 0:
                on_progress(progress)
        on_progress(progress)
