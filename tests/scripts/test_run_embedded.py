"""`make run`'s supervisor: a stop signal takes every child down with it."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "backend" / "scripts"

SUPERVISE_A_SLEEPER = f"""
import os, sys
from pathlib import Path
sys.path.insert(0, {str(SCRIPTS)!r})
import run_embedded
run_embedded.stop_on_signals()
supervisor = run_embedded.Supervisor()
try:  # as in main(): the signal may come at any point after stop_on_signals()
    supervisor.spawn("sleeper", ["sleep", "60"], cwd=Path("."), env=dict(os.environ))
    print(supervisor.children[0][1].pid, flush=True)
    supervisor.watch()
except KeyboardInterrupt:
    pass
finally:
    supervisor.stop()
"""


def _ignore_sigint() -> None:
    # What a shell does to a job it starts in the background.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_signal_stops_the_supervisor_and_its_children(stop_signal):
    supervisor = subprocess.Popen(
        [sys.executable, "-c", SUPERVISE_A_SLEEPER],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=_ignore_sigint,
    )
    try:
        assert supervisor.stdout is not None
        child = int(supervisor.stdout.readline())
        assert _alive(child)
        supervisor.send_signal(stop_signal)
        assert supervisor.wait(timeout=20) == 0
        deadline = time.monotonic() + 5
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(child)
    finally:
        if supervisor.poll() is None:
            supervisor.kill()


SUPERVISE_A_FAILING_OPTIONAL_CHILD = f"""
import os, sys
from pathlib import Path
sys.path.insert(0, {str(SCRIPTS)!r})
import run_embedded
supervisor = run_embedded.Supervisor()
try:
    supervisor.spawn("sleeper", ["sleep", "60"], cwd=Path("."), env=dict(os.environ))
    supervisor.spawn("bots", ["false"], cwd=Path("."), env=dict(os.environ), optional=True)
    supervisor.spawn("api", ["sleep", "2"], cwd=Path("."), env=dict(os.environ))
    supervisor.watch()
finally:
    supervisor.stop()
"""


def test_an_optional_child_that_exits_leaves_the_platform_running():
    # The bots (optional) fail at once; the platform stops only when the api exits, 2 s later.
    run = subprocess.run(
        [sys.executable, "-c", SUPERVISE_A_FAILING_OPTIONAL_CHILD],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert "bots exited with code 1; the rest runs on." in run.stdout
    assert "api exited with code 0; stopping." in run.stdout
