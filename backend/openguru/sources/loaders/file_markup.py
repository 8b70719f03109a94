"""HTML and Markdown file loaders. An HTML file goes through the website loader's extraction (main
content, headings and their ids kept, chrome dropped); a heading without an id gets a slug of its
text, so every section links to `page.html#heading`. A Markdown file goes to the Markdown chunker
as it is: it slugs headings as GitHub does (`notes.md#installation`)."""

import re
from pathlib import Path

from openguru.sources.loaders.base import (
    Document,
    LoadProgress,
    LoadRequest,
    LoadResult,
    ProgressCallback,
)
from openguru.sources.loaders.file_common import (
    HeadingIds,
    check_file,
    clean_text,
    file_link,
    nothing_to_index,
    read_text,
)
from openguru.sources.loaders.website_html import parse_page

HTML_LABEL = "HTML file"
MARKDOWN_LABEL = "Markdown file"
_FIRST_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


class HtmlLoader:
    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        path = Path(request.file_path)
        check_file(path, HTML_LABEL)
        text = read_text(path, HTML_LABEL)  # the charset of <meta> is for bytes on the wire
        page = parse_page(text.encode(), url=request.url or path.as_uri(), charset="utf-8")
        html, _ = HeadingIds().assign(page.html)
        if not html:
            raise nothing_to_index(HTML_LABEL)
        on_progress(LoadProgress(discovered=1, fetched=1))
        document = Document(
            title=page.title or request.title or path.name,
            link=file_link(request),
            text=html,
            format="html",
            metadata={"language": page.language} if page.language else {},
        )
        return LoadResult(documents=iter([document]))


class MarkdownLoader:
    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        path = Path(request.file_path)
        check_file(path, MARKDOWN_LABEL)
        text = read_text(path, MARKDOWN_LABEL).replace("\x00", "")
        if not text.strip():
            raise nothing_to_index(MARKDOWN_LABEL)
        on_progress(LoadProgress(discovered=1, fetched=1))
        heading = _FIRST_HEADING.search(text)
        document = Document(
            title=(clean_text(heading.group(1)) if heading else "") or request.title or path.name,
            link=file_link(request),
            text=text,
            format="markdown",
        )
        return LoadResult(documents=iter([document]))
