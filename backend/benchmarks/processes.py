"""Child processes the benchmark starts (servers), each in its own process group, and the memory
they use. `ChildProcesses` stops every group it started, in reverse order, on success, failure
or Ctrl-C, so a run never leaves a server behind."""

import contextlib
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Self

STOP_TIMEOUT_SECONDS = 15.0
_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class ChildProcesses:
    """A stack of started process groups; leaving the `with` block stops them all."""

    def __init__(self, stop_timeout: float = STOP_TIMEOUT_SECONDS) -> None:
        self.stop_timeout = stop_timeout
        self._children: list[tuple[str, subprocess.Popen[bytes]]] = []
        self._logs: list[IO[bytes]] = []

    def start(
        self,
        name: str,
        argv: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str],
        log_file: Path,
    ) -> subprocess.Popen[bytes]:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        log = log_file.open("ab")
        self._logs.append(log)
        process = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group: stopping it stops its children too
        )
        self._children.append((name, process))
        return process

    def adopt(self, name: str, process: subprocess.Popen[bytes]) -> None:
        """Track a process started elsewhere in its own session (e.g. the Milvus Lite server)."""
        self._children.append((name, process))

    def stop(self, process: subprocess.Popen[bytes]) -> None:
        """Stop one group now (the others stay)."""
        stop_group(process, self.stop_timeout)
        self._children = [(n, p) for n, p in self._children if p is not process]

    def stop_pid(self, pid: int) -> None:
        """Stop the group of the child started with this pid, if it is one of ours."""
        for _, process in list(self._children):
            if process.pid == pid:
                self.stop(process)

    def stop_all(self) -> None:
        while self._children:
            _name, process = self._children.pop()
            stop_group(process, self.stop_timeout)
        for log in self._logs:
            log.close()
        self._logs.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop_all()


def stop_group(process: subprocess.Popen[bytes], timeout: float = STOP_TIMEOUT_SECONDS) -> None:
    """SIGTERM the process group, then SIGKILL what is still alive after `timeout`."""
    if process.poll() is None:
        _signal_group(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _signal_group(process.pid, signal.SIGKILL)
            process.wait(timeout=timeout)
    # The leader may be gone while members of its group live on (a worker that ignored TERM).
    _signal_group(process.pid, signal.SIGKILL)


def _signal_group(pgid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


def wait_until(
    check: Callable[[], bool],
    *,
    timeout: float,
    what: str,
    process: subprocess.Popen[bytes] | None = None,
) -> None:
    """Poll `check` until it is true; fail early when `process` exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{what}: the process exited with code {process.returncode}")
        if check():
            return
        time.sleep(0.2)
    raise TimeoutError(f"{what}: not ready after {timeout:.0f}s")


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


# --- Memory ---------------------------------------------------------------------------------------


def children_of(pid: int) -> list[int]:
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            children.extend(int(child) for child in task.read_text().split())
    return children


def process_tree(pid: int) -> list[int]:
    """`pid` and all its descendants, from /proc (Linux)."""
    tree, pending = [], [pid]
    while pending:
        current = pending.pop()
        tree.append(current)
        pending.extend(children_of(current))
    return tree


def has_mapped(pid: int, library: str) -> bool:
    """Whether the process has loaded a shared library whose path contains `library`."""
    try:
        return library in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def rss_mb(pid: int) -> float:
    """Resident memory of one process in MB; 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/statm").read_text().split()
    except OSError:
        return 0.0
    return int(fields[1]) * _PAGE_KB / 1024


def tree_rss_mb(pid: int) -> float:
    return sum(rss_mb(member) for member in process_tree(pid))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time one process has used so far; 0 when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()  # the name in parentheses may contain spaces
    return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS  # utime, stime


def tree_cpu_seconds(pid: int) -> float:
    return sum(cpu_seconds(member) for member in process_tree(pid))


class PeakRss:
    """Samples the resident memory of a process tree in the background; `peak_mb` is the max."""

    def __init__(self, pid: int, interval: float = 0.25) -> None:
        self.pid = pid
        self.interval = interval
        self.peak_mb = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="peak-rss", daemon=True)

    def _run(self) -> None:
        while True:
            self.peak_mb = max(self.peak_mb, tree_rss_mb(self.pid))
            if self._stop.wait(self.interval):
                return

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.peak_mb = max(self.peak_mb, tree_rss_mb(self.pid))


def raise_open_files_limit(wanted: int = 65_536) -> None:
    """Hundreds of simultaneous streams need more sockets than a default soft limit of 1024;
    children inherit the raised limit."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
