"""What the Q&A site's browser tests read pages with: the streaming answer's partial texts,
an answer's first words, and a served page's head."""

import re
from html.parser import HTMLParser

# Records the streaming answer's text each time it changes while it is still streaming.
RECORD_PARTIALS = """() => {
  window.partials = [];
  new MutationObserver(() => {
    const busy = document.querySelector('[data-part=answer][aria-busy=true]');
    if (!busy) return;
    const text = busy.textContent.trim();
    if (text && !text.startsWith('Thinking') && window.partials.at(-1) !== text) {
      window.partials.push(text);
    }
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def lead(markdown: str) -> str:
    """The answer's first words as the page shows them: before the first link, without
    markdown's emphasis and quote marks."""
    text = re.sub(r"[_*>`]", "", markdown.split("[")[0])
    return " ".join(text.split())[:40]


class PageHead(HTMLParser):
    """The meta tags, canonical link and JSON-LD blocks of a served page's HTML."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.canonical = ""
        self.json_ld: list[str] = []
        self._in_json_ld = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "meta" and ("name" in a or "property" in a):
            self.meta[a.get("name") or a["property"]] = a.get("content", "")
        elif tag == "link" and a.get("rel") == "canonical":
            self.canonical = a.get("href", "")
        elif tag == "script" and a.get("type") == "application/ld+json":
            self._in_json_ld = True
            self.json_ld.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_json_ld = False

    def handle_data(self, data: str) -> None:
        if self._in_json_ld:
            self.json_ld[-1] += data
