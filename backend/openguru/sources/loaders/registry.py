"""Which loader reads which kind of data source."""

from collections.abc import Callable

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.loaders.base import Loader
from openguru.sources.loaders.github import GitHubLoader
from openguru.sources.loaders.pdf import PdfLoader
from openguru.sources.loaders.text import FaqLoader, TextLoader
from openguru.sources.loaders.youtube_collection import YouTubeSourceLoader


def _file_loaders() -> dict[str, Callable[[], Loader]]:
    # Imported on demand: the office-format libraries are only needed by these source types.
    from openguru.sources.loaders.file_epub import EpubLoader
    from openguru.sources.loaders.file_markup import HtmlLoader, MarkdownLoader
    from openguru.sources.loaders.file_sheets import CsvLoader, XlsxLoader
    from openguru.sources.loaders.file_slides import PptxLoader
    from openguru.sources.loaders.file_word import DocxLoader

    return {
        "docx": DocxLoader,
        "pptx": PptxLoader,
        "xlsx": XlsxLoader,
        "csv": CsvLoader,
        "html": HtmlLoader,
        "markdown": MarkdownLoader,
        "epub": EpubLoader,
    }


def _website_loader() -> Loader:
    # Imported on demand: the crawler pulls in heavy extraction libraries that the other
    # source types never need.
    from openguru.sources.loaders.website import website_loader

    return website_loader()


_LOADERS: dict[str, Callable[[], Loader]] = {
    "website": _website_loader,
    "pdf": PdfLoader,
    "youtube": YouTubeSourceLoader,
    "github_repo": GitHubLoader,
    "text": TextLoader,
    "faq": FaqLoader,
}


def loader_for(source_type: str) -> Loader:
    factory = _LOADERS.get(source_type) or _file_loaders().get(source_type)
    if factory is None:
        raise DomainError(ErrorCode.INVALID_INPUT, f"Unknown source type {source_type!r}.")
    return factory()
