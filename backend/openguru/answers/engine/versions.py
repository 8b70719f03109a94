"""Which documentation version an answer reads (`sources/versions.py` says what a version is):
the one the caller chose (a selector, an API field), else the one the question names
("in Django 4.2", "v5.0", "version 4.2", "the latest version"), else the one of the question a
follow-up follows, else the guru's default. A guru
whose sources carry no version label reads everything, unfiltered."""

import re
from dataclasses import dataclass

from openguru.gurus.models import Guru
from openguru.providers.vectorstore.base import SearchFilter
from openguru.sources.versions import guru_default_version, guru_versions, version_filter


@dataclass(frozen=True)
class VersionChoice:
    version: str  # "": the guru has no versions
    how: str  # "explicit" | "named" | "default" | "none"
    where: SearchFilter | None  # the vector-store filter of that version


UNVERSIONED = VersionChoice(version="", how="none", where=None)


def version_named(question: str, versions: list[str]) -> str:
    """The label the question names, or "". A numeric label counts as a word of its own
    ("4.2", "v4.2", but not "4.21" or "14.2"; a bare integer only as "v3" or "version 3"); a
    word label ("latest") only beside the word "version" or "docs", since plain words are part
    of ordinary questions."""
    named = [(label, _mention(label)) for label in versions]
    found = [(m.start(), label) for label, pattern in named if (m := pattern.search(question))]
    return min(found)[1] if found else ""  # the first one named


def _mention(label: str) -> re.Pattern[str]:
    escaped = re.escape(label)
    if label.isdigit():  # "3" alone is any number ("3 seconds"): only as "v3" or "version 3"
        return re.compile(rf"(?<![\w.])(?:v|version\s*){escaped}(?![\w]|\.\d)", re.IGNORECASE)
    if any(ch.isdigit() for ch in label):
        return re.compile(rf"(?<![\w.])(?:v|version\s*)?{escaped}(?![\w]|\.\d)", re.IGNORECASE)
    return re.compile(
        rf"\b(?:version\s+{escaped}|{escaped}\s+(?:version|docs|documentation))\b",
        re.IGNORECASE,
    )


def version_choose(
    *, guru: Guru, question: str, explicit: str = "", inherited: str = ""
) -> VersionChoice:
    """Blocking (database). `explicit` was checked against the guru's labels at the door;
    `inherited` is the version of the question a follow-up follows, read unless this one names
    another."""
    version, how = version_label_choose(
        guru=guru,
        question=question,
        explicit=explicit,
        inherited=inherited,
        versions=guru_versions(guru=guru),
    )
    if not version:
        return UNVERSIONED
    return VersionChoice(version=version, how=how, where=version_filter(guru=guru, version=version))


def version_label_choose(
    *, guru: Guru, question: str, explicit: str, inherited: str, versions: list[str]
) -> tuple[str, str]:
    """The label `version_choose` picks among the guru's `versions`, and how ("", "none" for
    an unversioned guru)."""
    if not versions:
        return "", "none"
    if explicit in versions:
        return explicit, "explicit"
    if named := version_named(question, versions):
        return named, "named"
    if inherited in versions:
        return inherited, "follow_up"
    return guru_default_version(guru=guru, versions=versions), "default"
