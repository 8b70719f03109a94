"""A full disk, wherever it is met, as the error an admin can act on.

The operating system says "no space" (ENOSPC) or "over quota" (EDQUOT) with an OSError deep in
whatever was writing: a clone, an upload, a temporary file of a library. Callers at a boundary
(a source's processing run, an API request) look for it anywhere in the exception's chain, so a
library that wraps it in its own error does not hide it.

Milvus Lite does not say it: on a full disk it answers inserts as if they were stored, and they
are gone after its next restart (SQLite says "database or disk is full", which reads as a lost
database). A processing run therefore checks the room left where the embedded stores keep their
data before it writes anything (`ingest_disk_check`).
"""

import errno
import shutil
from pathlib import Path

from django.conf import settings

from openguru.core.errors import DomainError, ErrorCode

DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})
INDEXING = "the source could not be indexed. Free some space, then re-index"
STORING = "the file could not be stored. Free some space, then upload it again"
REQUEST = "the request could not be completed. Free some space, then try again"


def disk_full_cause(exc: BaseException) -> OSError | None:
    """The "no space" or "over quota" OSError in `exc`'s chain (causes and contexts), if any."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in DISK_FULL_ERRNOS:
            return current
        current = current.__cause__ or current.__context__
    return None


def disk_full_error(consequence: str) -> DomainError:
    return DomainError(ErrorCode.DISK_FULL, f"The server's disk is full, so {consequence}.")


def _embedded_data_folders() -> list[Path]:
    folders = [Path(settings.MILVUS_LITE_DATA).parent]
    database = settings.DATABASES["default"]
    name = str(database["NAME"])
    if database["ENGINE"].endswith("sqlite3") and Path(name).is_absolute():  # not in memory
        folders.append(Path(name).parent)
    return folders


def ingest_disk_check() -> None:
    """Refuse to index while the disk of the embedded data (Milvus Lite's file, the SQLite
    database) has less room than INGEST_MIN_FREE_MB. A server elsewhere (Milvus, PostgreSQL) is
    not ours to measure: its folder does not exist here, and it reports its own errors."""
    for folder in _embedded_data_folders():
        if not folder.is_dir():
            continue
        free_mb = shutil.disk_usage(folder).free / (1024 * 1024)
        if free_mb < settings.INGEST_MIN_FREE_MB:
            raise disk_full_error(INDEXING)
