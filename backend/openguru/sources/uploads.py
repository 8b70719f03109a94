"""An uploaded file written to the source's storage, all of it or nothing.

Django's file storage leaves whatever it wrote when a write fails half-way: on a full disk, the
first megabytes of a PDF nobody will ever read, in a folder nothing points to. Here the name is
chosen first (`upload_to` gives every upload a folder of its own), so a failed write is removed
with its folder, and a full disk is the error an admin can act on.
"""

import logging
from contextlib import suppress
from pathlib import Path

from django.core.files.uploadedfile import UploadedFile

from openguru.core.disk import STORING, disk_full_cause, disk_full_error
from openguru.sources.models import DataSource

logger = logging.getLogger(__name__)


def upload_store(*, source: DataSource, upload: UploadedFile) -> None:
    """Store `upload` as the source's file (the row is not saved)."""
    field, storage = source.file.field, source.file.storage
    # A name nothing has yet: what a failed write leaves there is this upload's own.
    name = storage.get_available_name(
        field.generate_filename(source, str(upload.name)), max_length=field.max_length
    )
    try:
        stored = storage.save(name, upload, max_length=field.max_length)
    except OSError as exc:
        _remove_partial(Path(storage.path(name)))
        if disk_full_cause(exc) is None:
            raise
        logger.warning("upload %s not stored, the disk is full: %s", upload.name, exc)
        raise disk_full_error(STORING) from exc
    source.file = stored  # a name: the descriptor makes it a FieldFile


def _remove_partial(path: Path) -> None:
    with suppress(OSError):
        path.unlink(missing_ok=True)
    with suppress(OSError):  # the upload's own folder, if nothing else is in it
        path.parent.rmdir()
