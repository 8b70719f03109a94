"""Hypothesis settings and input strategies shared by the property tests.

Every property test runs with `FUZZ` (or `fuzz(n)`): derandomized, so a run is reproducible and a
failure found once is found again; a bounded number of examples, so the folder fits in a test
run; no per-example deadline (the machine is shared, speed belongs to benchmarks).
"""

from collections.abc import Callable

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

CountTokens = Callable[[str], int]


def fuzz(max_examples: int) -> settings:
    return settings(
        derandomize=True,
        max_examples=max_examples,
        deadline=None,
        database=None,  # derandomized runs need no example database
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


FUZZ = fuzz(60)


# --- token counters: the chunker must hold its budget under either --------------------------------


def count_words(text: str) -> int:
    return len(text.split())  # the fake embedder's count


def count_chars(text: str) -> int:
    return len(text)  # much stricter: forces cuts inside words


COUNTERS = st.sampled_from([count_words, count_chars])


# --- text -----------------------------------------------------------------------------------------

# Words, punctuation and every kind of line break and space str.splitlines() and \s know about.
_ODD_SPACES = ["\r\n", "\r", "\t", "\x0b", "\x0c", "\x85", "\u2028", "\u00a0", "\u3000", "  "]
WORD = st.one_of(
    st.sampled_from(["the", "Widget", "install", "render()", "x=1;", "naïve", "日本語", "🔗"]),
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=12),
    st.text("ab", min_size=30, max_size=300),  # one word longer than any budget
)
SEPARATOR = st.sampled_from([" ", " ", " ", "\n", "\n\n", ". ", ": ", *_ODD_SPACES])


@st.composite
def prose(draw: st.DrawFn, max_words: int = 120) -> str:
    words = draw(st.lists(WORD, max_size=max_words))
    out: list[str] = []
    for word in words:
        out += [word, draw(SEPARATOR)]
    return "".join(out)


# --- markdown -------------------------------------------------------------------------------------


def _atx_heading(level: int, text: str) -> str:
    return "#" * level + " " + text


MARKDOWN_LINE = st.one_of(
    prose(max_words=12),
    st.builds(_atx_heading, st.integers(1, 7), prose(max_words=4)),
    st.sampled_from(
        ["", "```", "```python", "~~~", "===", "---", "***", "- item", "1. step", "> quote"]
    ),
    st.sampled_from(["#", "#Heading", "   ## indented #", "Title\n=====", "Sub\n---", "|a|b|"]),
)


@st.composite
def markdown(draw: st.DrawFn, max_lines: int = 40) -> str:
    return "\n".join(draw(st.lists(MARKDOWN_LINE, max_size=max_lines)))


# --- code -----------------------------------------------------------------------------------------

CODE_LINE = st.one_of(
    st.sampled_from(
        [
            "def f(x):",
            "    return x + 1",
            "class A:",
            "",
            "    pass",
            "import os",
            "function g() {",
            "}",
            "// comment",
            "        deeply.nested(call, arg)",
        ]
    ),
    prose(max_words=8),
)
LANGUAGES = st.sampled_from(["python", "javascript", "go", "rust", "markdown", "html", "", "cobol"])


@st.composite
def code(draw: st.DrawFn, max_lines: int = 60) -> str:
    return "\n".join(draw(st.lists(CODE_LINE, max_size=max_lines)))


# --- HTML: nested trees built from tags, attributes and text --------------------------------------

TAGS = [
    "div", "p", "span", "section", "article", "main", "ul", "ol", "li", "dl", "dt", "dd",
    "table", "tr", "td", "th", "pre", "code", "a", "b", "em", "h1", "h2", "h3", "h6", "br",
    "script", "style", "nav", "footer", "header", "aside", "form", "template", "svg", "button",
    "blockquote", "font", "img", "hr", "caption", "details", "summary", "noscript", "iframe",
]  # fmt: skip
ATTRIBUTES = st.sampled_from(
    [
        "",
        ' id="intro"',
        ' class="headerlink" href="#x"',
        ' href="#"',
        ' href="/next.html"',
        ' href="javascript:alert(1)"',
        ' role="main"',
        ' role="navigation"',
        " hidden",
        ' aria-hidden="true"',
        ' class="body"',
        ' lang="fr"',
        " onclick='x()'",
        ' href="http://[::1"',  # a URL that does not parse
    ]
)
HTML_TEXT = st.one_of(
    prose(max_words=6),
    st.sampled_from(["&amp;", "&lt;b&gt;", "&nbsp;", "&#0;", "&#xD800;", "<!-- c -->", "¶"]),
    st.sampled_from(["<", ">", "</", "<![CDATA[x]]>", "<?php ?>", "\x00", "]]>"]),
)


def _element(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    @st.composite
    def build(draw: st.DrawFn) -> str:
        tag = draw(st.sampled_from(TAGS))
        inner = "".join(draw(st.lists(children, max_size=4)))
        closing = draw(st.sampled_from([f"</{tag}>", f"</{tag}>", "", "</div>"]))  # or left open
        return f"<{tag}{draw(ATTRIBUTES)}>{inner}{closing}"

    return build()


HTML_FRAGMENT = st.recursive(HTML_TEXT, _element, max_leaves=40)


@st.composite
def html_page(draw: st.DrawFn) -> str:
    head = draw(st.sampled_from(["", "<title>Page title</title>", "<title></title>"]))
    body = "".join(draw(st.lists(HTML_FRAGMENT, max_size=5)))
    wrapper = draw(
        st.sampled_from(
            [
                "<html><head>{head}</head><body>{body}</body></html>",
                "{head}{body}",
                '<?xml version="1.0" encoding="utf-8"?><html>{head}<body>{body}',
                "<!DOCTYPE html>{head}<main>{body}</main>",
            ]
        )
    )
    return wrapper.format(head=head, body=body)
