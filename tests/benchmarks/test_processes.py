"""Child process groups are stopped with everything they spawned; memory is read from /proc."""

import os
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.processes import (
    ChildProcesses,
    PeakRss,
    cpu_seconds,
    process_tree,
    rss_mb,
    tree_cpu_seconds,
    tree_rss_mb,
)

# A parent that starts a grandchild and then ignores SIGTERM: only the group kill ends both.
PARENT = """
import signal, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
print(child.pid, flush=True)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
time.sleep(120)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its parent has not reaped it


def _grandchild_pid(log: Path) -> int:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        text = log.read_text().strip()
        if text:
            return int(text)
        time.sleep(0.05)
    raise AssertionError("the child never printed its child's pid")


def test_leaving_the_block_stops_the_whole_group(tmp_path: Path) -> None:
    log = tmp_path / "parent.log"
    with ChildProcesses(stop_timeout=1.0) as processes:
        parent = processes.start(
            "stubborn",
            [sys.executable, "-c", PARENT],
            cwd=tmp_path,
            env={},
            log_file=log,
        )
        grandchild = _grandchild_pid(log)
        assert grandchild in process_tree(parent.pid)
        assert _alive(grandchild)
    assert parent.poll() is not None
    deadline = time.monotonic() + 10
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(grandchild)


def test_stop_one_leaves_the_others_running(tmp_path: Path) -> None:
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]
    with ChildProcesses() as processes:
        first = processes.start("a", sleeper, cwd=tmp_path, env={}, log_file=tmp_path / "a.log")
        second = processes.start("b", sleeper, cwd=tmp_path, env={}, log_file=tmp_path / "b.log")
        processes.stop(first)
        assert first.poll() is not None
        assert second.poll() is None
    assert second.poll() is not None


def test_memory_of_a_tree_counts_its_children(tmp_path: Path) -> None:
    # The child holds ~64 MB of touched memory, so the tree is clearly bigger than the parent.
    code = "import time; b = b'x' * (64 << 20); print('ready', flush=True); time.sleep(60)"
    parent = subprocess.Popen(
        ["/bin/sh", "-c", f'"{sys.executable}" -c "{code}"; true'],
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert parent.stdout is not None and parent.stdout.readline() == b"ready\n"
        with PeakRss(parent.pid, interval=0.05) as peak:
            time.sleep(0.2)
        assert rss_mb(parent.pid) < 32
        assert tree_rss_mb(parent.pid) > 64
        assert peak.peak_mb > 64
    finally:
        os.killpg(parent.pid, 9)
        parent.wait()
    assert rss_mb(parent.pid) == 0.0


BURNER = """
import time
while time.process_time() < 0.3:
    pass
print("done", flush=True)
time.sleep(60)
"""


def test_cpu_time_of_a_tree_counts_its_children(tmp_path: Path) -> None:
    # The child burns 0.3 s of its own CPU time (not wall time) while the shell only waits.
    script = tmp_path / "burn.py"
    script.write_text(BURNER)
    parent = subprocess.Popen(
        ["/bin/sh", "-c", f'"{sys.executable}" "{script}"; true'],
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert parent.stdout is not None and parent.stdout.readline() == b"done\n"
        assert cpu_seconds(parent.pid) < 0.1
        assert tree_cpu_seconds(parent.pid) >= 0.29
    finally:
        os.killpg(parent.pid, 9)
        parent.wait()
    assert cpu_seconds(parent.pid) == 0.0
