"""A small disk that really fills up: a tmpfs of a given size (and number of files).

`mount` where the test may mount (root, or CAP_SYS_ADMIN); else in a user and mount namespace of
its own (`unshare -rm`), kept alive by a child process and reached through that child's view of
the file system (`/proc/<pid>/root/...`), which this process and the ones it starts can use like
any folder. Where neither is allowed the test is skipped: a full disk is not faked."""

import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _options(size: int, inodes: int | None) -> str:
    return f"size={size}" + (f",nr_inodes={inodes}" if inodes else "")


@contextmanager
def small_disk(where: Path, *, size: int, inodes: int | None = None) -> Iterator[Path]:
    """A fresh tmpfs of `size` bytes (and at most `inodes` files and folders) at `where`."""
    where.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", _options(size, inodes), "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode == 0:
        try:
            yield where
        finally:
            subprocess.run(["umount", "-l", str(where)], check=False)
        return
    with _namespaced(where, size, inodes, refused=mounted.stderr.strip()) as path:
        yield path


@contextmanager
def _namespaced(where: Path, size: int, inodes: int | None, *, refused: str) -> Iterator[Path]:
    if shutil.which("unshare") is None:
        pytest.skip(f"mounting a small tmpfs needs privileges: {refused}")
    script = (
        f'mount -t tmpfs -o {_options(size, inodes)} tmpfs "$1" && echo ready && exec sleep 3600'
    )
    holder = subprocess.Popen(
        ["unshare", "-rm", "sh", "-c", script, "sh", str(where)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        if holder.stdout.readline().strip() != "ready":
            holder.wait(timeout=10)
            reason = holder.stderr.read().strip() if holder.stderr else ""
            pytest.skip(f"no small tmpfs: mount refused ({refused}), unshare refused ({reason})")
        yield Path(f"/proc/{holder.pid}/root") / where.relative_to("/")
    finally:
        holder.kill()  # the namespace, and its tmpfs, go with the last process in it
        holder.wait()


def fill(disk: Path) -> Path:
    """Write until the disk says it is full; returns the file to delete to free it again."""
    filler = disk / "filler"
    block = bytes(64 * 1024)
    with filler.open("wb", buffering=0) as handle:  # unbuffered: nothing is left to flush
        try:
            while handle.write(block):
                pass
        except OSError:
            pass
    return filler
