"""FAQ entries: one question-answer pair is one chunk, never split (only an outsized pair is
cut, to bound the answer prompt)."""

from openguru.sources.chunking.base import FAQ_TRUNCATE_FACTOR, Draft, Limits
from openguru.sources.chunking.sizing import truncate
from openguru.sources.loaders.base import Document


def faq_drafts(document: Document, limits: Limits) -> list[Draft]:
    text = document.text.strip()
    if not text:
        return []
    text = truncate(text, limits.size * FAQ_TRUNCATE_FACTOR, limits.count)
    metadata = {"heading_path": document.title}
    return [Draft(text=text, link=document.link, measure=len(text), metadata=metadata)]
