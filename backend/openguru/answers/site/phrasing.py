"""Questions a visitor might ask, phrased from a heading or a title without an LLM.

A heading names a topic ("Virtual environments", "Installing Flask", "Configuration"); a visitor
asks about a task or how something works. So a task heading becomes "How do I …?", a known
section name becomes the task it stands for, a guide's title asks what it covers, and any other
topic asks how it works. "What is <heading>?" reads like machine output and is never made.
"""

import re

# "venv — Python 3.13 docs": what follows a dash or bar is the site's name.
_TITLE_TAIL = re.compile("\\s+[\u2014\u2013|-]\\s+.*$")
_NUMBERING = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s+")
_ASKING = re.compile(
    r"(?i)(how|why|what|when|where|which|who|can|could|should|is|are|do|does|will)\b"
)
_HOW_TO = re.compile(r"(?i)^how\s+to\s+")
_GERUND = re.compile(r"^([A-Za-z]{2,}ing)\b(.*)$")

# Section names that stand for a task on the guru's subject.
_SECTIONS = {
    "installation": "How do I install {subject}?",
    "install": "How do I install {subject}?",
    "setup": "How do I set up {subject}?",
    "configuration": "How do I configure {subject}?",
    "deployment": "How do I deploy {subject}?",
    "usage": "How do I use {subject}?",
    "getting started": "How do I get started with {subject}?",
    "quickstart": "How do I get started with {subject}?",
    "quick start": "How do I get started with {subject}?",
    "troubleshooting": "How do I troubleshoot {subject}?",
    "requirements": "What does {subject} need to run?",
    "upgrading": "How do I upgrade {subject}?",
    "testing": "How do I test {subject}?",
    "overview": "What is {subject} for?",
    "introduction": "What is {subject} for?",
}
# A title of a whole document rather than a topic in it.
_DOCUMENT_WORDS = frozenset(
    {"guide", "tutorial", "reference", "manual", "handbook", "documentation", "docs", "notes"}
)
# Verbs whose "-ing" form drops an "e" ("creating"), by the ending left behind.
_SILENT_E = re.compile(
    r"(?:[^e]at|creat|ur|iz|is|ys|v|ag|chang|rrang|[rl]g|enc|anc|ac|uc|rc|cach|[bdgkpt]l"
    r"|[^aeiou][iu]l|os|as|rs|[^aeiou]in|ut|rit|[^e]ak)$"
)
_KEEP_DOUBLE = ("ll", "ss", "zz", "dd", "ff")


def question_from_heading(heading: str, *, subject: str = "it") -> str:
    """A question for `heading`; `subject` names the guru's topic ("Flask")."""
    text = _cleaned(heading)
    if not text:
        return ""
    if text.endswith("?"):
        return text
    if _HOW_TO.match(text):
        return f"How do I {_HOW_TO.sub('', text)}?"
    if _ASKING.match(text):
        return f"{_capital(text)}?"
    section = _SECTIONS.get(text.casefold())
    if section:
        return section.format(subject=subject)
    task = _task(text)
    if task:
        return f"How do I {task}?"
    topic = _topic(text, subject)
    if set(text.casefold().split()) & _DOCUMENT_WORDS:
        return f"What does the {topic} cover?"
    return f"How {'do' if _plural(text) else 'does'} {topic} work?"


def _cleaned(heading: str) -> str:
    text = _TITLE_TAIL.sub("", " ".join(heading.split())).strip(" .:#")
    return _NUMBERING.sub("", text)


def _capital(text: str) -> str:
    return f"{text[0].upper()}{text[1:]}"


def _task(text: str) -> str:
    """ "Installing Flask" → "install Flask"; a lone "Routing" names a topic, not a task."""
    gerund = _GERUND.match(text)
    if not gerund or not gerund.group(2).strip():
        return ""
    verb = _base_form(gerund.group(1).lower())
    if not re.search("[aeiouy]", verb):
        return ""  # "String formatting": not a verb
    return f"{verb}{gerund.group(2)}"


def _base_form(gerund: str) -> str:
    """ "installing" → "install", "running" → "run", "creating" → "create", "using" → "use"."""
    stem = gerund[:-3]
    if len(stem) > 2 and stem[-1] == stem[-2] and not stem.endswith(_KEEP_DOUBLE):
        return stem[:-1]
    if stem == "us" or _SILENT_E.search(stem):
        return f"{stem}e"
    return stem


def _topic(text: str, subject: str) -> str:
    """Sentence case mid-sentence ("virtual environments"); names keep their capitals."""
    first, _, rest = text.partition(" ")
    is_name = first.casefold() in subject.casefold().split() or not first[1:].islower()
    return text if is_name else f"{first.lower()} {rest}".strip()


def _plural(text: str) -> bool:
    last = text.split()[-1].lower()
    return last.endswith("s") and not last.endswith(("ss", "us", "is"))
