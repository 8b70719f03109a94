"""A guru's uploaded icon: a small PNG, JPEG, GIF or WebP kept under MEDIA_ROOT/icons/ and served
by the API (so it is reachable wherever the API is, the widget's third-party pages included).

The type is read from the file's first bytes, never from its name or the client's header, and
the icon is served with that type only: SVG is refused, as it can carry scripts.
"""

import hashlib
from dataclasses import dataclass

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from openguru.core.audit.services import audit_record
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru

ICON_MAX_BYTES = 1024 * 1024
CONTENT_TYPES = {"png": "image/png", "jpg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"}


@dataclass(frozen=True)
class StoredIcon:
    name: str  # in the default storage
    content_type: str


def icon_kind(head: bytes) -> str | None:
    """ "png", "jpg", "gif" or "webp" by the file's signature; None for anything else."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    return None


def _name(guru: Guru, kind: str) -> str:
    return f"icons/guru-{guru.pk}.{kind}"


def guru_icon_get(*, guru: Guru) -> StoredIcon | None:
    for kind, content_type in CONTENT_TYPES.items():
        if default_storage.exists(_name(guru, kind)):
            return StoredIcon(_name(guru, kind), content_type)
    return None


def guru_icon_store(*, guru: Guru, upload: UploadedFile, icon_url: str) -> Guru:
    """Replace the guru's icon with `upload` and point its `icon_url` at `icon_url` plus a
    version of the content, so caches and browsers fetch the new one."""
    if (upload.size or 0) > ICON_MAX_BYTES:
        raise DomainError(ErrorCode.FILE_TOO_LARGE, "Icons may be at most 1 MB.")
    content = upload.read(ICON_MAX_BYTES + 1)
    if len(content) > ICON_MAX_BYTES:
        raise DomainError(ErrorCode.FILE_TOO_LARGE, "Icons may be at most 1 MB.")
    kind = icon_kind(content[:16])
    if kind is None:
        raise DomainError(ErrorCode.INVALID_FILE, "Icons must be PNG, JPEG, GIF or WebP images.")
    for other in CONTENT_TYPES:
        default_storage.delete(_name(guru, other))
    default_storage.save(_name(guru, kind), ContentFile(content))
    version = hashlib.sha256(content).hexdigest()[:12]
    with transaction.atomic():
        before = {"icon_url": guru.icon_url}
        guru.icon_url = f"{icon_url}?v={version}"
        guru.save(update_fields=["icon_url", "updated_at"])
        after = {"icon_url": guru.icon_url}
        audit_record(action="guru.icon", target=guru, guru=guru, before=before, after=after)
    return guru
