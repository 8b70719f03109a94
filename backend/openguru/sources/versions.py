"""Documentation versions: a source may carry a version label ("4.2", "5.0", "latest"); a source
without one belongs to every version. An answer reads one version: its sources plus the
unversioned ones, found in the vector store by their source ids (`version_filter`), so a label
changes with one row update and no re-index.

Labels order newest first: "latest" (and any other word) above numbers, numbers compared part by
part ("4.10" above "4.9").
"""

import re
from collections.abc import Iterable
from typing import Any

from django.db import transaction

from openguru.core.audit.services import audit_record
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.base import SearchFilter
from openguru.sources.models import DataSource

VERSION_MAX_CHARS = 32
_LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def version_label_clean(label: str) -> str:
    """The label as stored ("" for none), or a user-readable INVALID_INPUT."""
    label = label.strip()
    if label.lower().startswith("v") and label[1:2].isdigit():
        label = label[1:]  # "v5.0" and "5.0" name one version
    if len(label) > VERSION_MAX_CHARS or (label and not _LABEL.match(label)):
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            f"A version is up to {VERSION_MAX_CHARS} letters, digits, dots, dashes or "
            "underscores, such as 4.2 or latest.",
        )
    return label


def version_order_key(label: str) -> tuple[int, tuple[int, ...], str]:
    """Sorts ascending from the oldest: numbers part by part, then words ("latest")."""
    parts = re.findall(r"\d+", label)
    if re.fullmatch(r"[\d._-]+", label):
        return (0, tuple(int(p) for p in parts), label)
    return (1, tuple(int(p) for p in parts), label.lower())


def versions_sorted(labels: Iterable[str]) -> list[str]:
    """Distinct labels, newest first."""
    return sorted({label for label in labels if label}, key=version_order_key, reverse=True)


def guru_versions(*, guru: Guru) -> list[str]:
    """The version labels the guru's sources carry, newest first ([]: it is unversioned)."""
    labels = DataSource.objects.filter(guru=guru).exclude(version="")
    return versions_sorted(labels.values_list("version", flat=True).distinct())


def guru_default_version(*, guru: Guru, versions: list[str] | None = None) -> str:
    """The guru's chosen default when a source carries it, else its newest label ("": none)."""
    versions = guru_versions(guru=guru) if versions is None else versions
    if guru.default_version in versions:
        return guru.default_version
    return versions[0] if versions else ""


def guru_versions_offered(*, guru: Guru) -> dict[str, Any]:
    """What a version selector offers: the labels, newest first, and the one chosen first."""
    versions = guru_versions(guru=guru)
    return {
        "versions": versions,
        "default_version": guru_default_version(guru=guru, versions=versions),
    }


def version_filter(*, guru: Guru, version: str) -> SearchFilter | None:
    """The vector-store filter of one version: its sources and the unversioned ones. None (no
    filter) for "": the guru has no versions."""
    if not version:
        return None
    ids = DataSource.objects.filter(guru=guru, version__in=[version, ""]).values_list(
        "pk", flat=True
    )
    return SearchFilter(source_ids=sorted(ids))


def version_checked(*, guru: Guru, version: str) -> str:
    """A version a caller asked for by name: one of the guru's labels ("" stays "")."""
    label = version_label_clean(version)
    if not label:
        return ""
    versions = guru_versions(guru=guru)
    match = next((v for v in versions if v.lower() == label.lower()), None)
    if match is None:
        known = ", ".join(versions) or "none"
        raise DomainError(
            ErrorCode.INVALID_INPUT, f"This guru has no version '{label}' (versions: {known})."
        )
    return match


def source_version_set(*, source: DataSource, version: str) -> DataSource:
    """Move a source to another version (or to every version: ""). Its chunks stay as they
    are: answers find a version's sources by id."""
    label = version_label_clean(version)
    if label == source.version:
        return source
    before = source.version
    with transaction.atomic():
        source.version = label
        source.save(update_fields=["version", "updated_at"])
        audit_record(
            action="source.version_set",
            target=source,
            target_label=source.title or source.url,
            guru=source.guru,
            before={"version": before},
            after={"version": label},
        )
    return source
