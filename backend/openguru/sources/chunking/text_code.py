"""Plain text (one titled run of prose) and source code (split on the language's own
boundaries, each chunk linked to its line range `#La-Lb`)."""

from typing import Any

from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

from openguru.sources.chunking.base import CountTokens, Draft, Limits
from openguru.sources.chunking.sizing import fit, prose_splitter
from openguru.sources.loaders.base import Document

_SPLITTER_LANGUAGES: dict[str, Language] = {
    "python": Language.PYTHON,
    "javascript": Language.JS,
    "typescript": Language.TS,
    "go": Language.GO,
    "rust": Language.RUST,
    "java": Language.JAVA,
    "kotlin": Language.KOTLIN,
    "ruby": Language.RUBY,
    "php": Language.PHP,
    "c": Language.C,
    "cpp": Language.CPP,
    "csharp": Language.CSHARP,
    "swift": Language.SWIFT,
    "scala": Language.SCALA,
    "html": Language.HTML,
    "markdown": Language.MARKDOWN,
    "rst": Language.RST,
    "lua": Language.LUA,
    "perl": Language.PERL,
    "haskell": Language.HASKELL,
    "elixir": Language.ELIXIR,
    "proto": Language.PROTO,
    "solidity": Language.SOL,
    "powershell": Language.POWERSHELL,
    "latex": Language.LATEX,
    "r": Language.R,
}


def text_drafts(document: Document, limits: Limits) -> list[Draft]:
    metadata = {"heading_path": document.title}
    return [
        Draft(text=text, link=document.link, measure=len(body), metadata=metadata)
        for text, body in fit(document.title, document.text, limits, prose_splitter)
    ]


def code_drafts(document: Document, limits: Limits) -> list[Draft]:
    language = _SPLITTER_LANGUAGES.get(str(document.metadata.get("language", "")))

    def splitter(budget: int, overlap: int, count: CountTokens) -> RecursiveCharacterTextSplitter:
        return _code_splitter(language, budget, overlap, count)

    drafts: list[Draft] = []
    search_from = 0
    for text, body in fit(document.title, document.text, limits, splitter):
        start = document.text.find(body, search_from)
        if start < 0:  # only when the size guard re-joined words; fall back to the first hit
            start = max(document.text.find(body), 0)
        search_from = start + 1
        first = document.text.count("\n", 0, start) + 1
        last = first + body.count("\n")
        link = f"{document.link}#L{first}-L{last}" if document.link else ""
        metadata = {"heading_path": document.title, "start_line": first, "end_line": last}
        drafts.append(Draft(text=text, link=link, measure=len(body), metadata=metadata))
    return drafts


def _code_splitter(
    language: Language | None, budget: int, overlap: int, count: CountTokens
) -> RecursiveCharacterTextSplitter:
    options: dict[str, Any] = {
        "chunk_size": budget,
        "chunk_overlap": overlap,
        "length_function": count,
    }
    if language is None:
        return RecursiveCharacterTextSplitter(**options)
    return RecursiveCharacterTextSplitter.from_language(language, **options)
