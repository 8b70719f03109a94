"""`make run`'s supervisor restarts a crashed child with backoff, says so, and still stops
everything on a stop signal."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "backend" / "scripts"

SUPERVISE = f"""
import os, sys
from pathlib import Path

import pytest
sys.path.insert(0, {str(SCRIPTS)!r})
import run_embedded
run_embedded.stop_on_signals()
supervisor = run_embedded.Supervisor(first_delay=float(sys.argv[2]), max_delay=float(sys.argv[3]),
                                     stable_after=float(sys.argv[4]), poll=0.05)
try:
    supervisor.spawn("sleeper", ["sh", "-c", sys.argv[1]], cwd=Path("."), env=dict(os.environ))
    supervisor.watch()
except KeyboardInterrupt:
    print("stopped", flush=True)
finally:
    supervisor.stop()
"""


def _supervise(child_script: str, first: float, cap: float, stable: float) -> subprocess.Popen:
    argv = [sys.executable, "-c", SUPERVISE, child_script, str(first), str(cap), str(stable)]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _line(supervisor: subprocess.Popen) -> str:
    assert supervisor.stdout is not None
    line = supervisor.stdout.readline()
    assert line, "the supervisor ended early"
    return line.strip()


def _next(supervisor: subprocess.Popen, pattern: str) -> re.Match[str]:
    while True:
        match = re.fullmatch(pattern, _line(supervisor))
        if match:
            return match


def _restarted(supervisor: subprocess.Popen) -> int:
    """The new child's pid, once the supervisor has said it restarted it (the child's own
    line and the supervisor's come in either order)."""
    pid, said = None, False
    while pid is None or not said:
        line = _line(supervisor)
        said = said or line == "sleeper restarted."
        match = re.fullmatch(r"pid (\d+)", line)
        pid = int(match[1]) if match else pid
    return pid


def test_a_killed_child_is_restarted_with_backoff_and_a_stop_signal_still_stops_all():
    supervisor = _supervise("echo pid $$; exec sleep 60", first=0.5, cap=30, stable=60)
    try:
        first = int(_next(supervisor, r"pid (\d+)")[1])
        killed_at = time.monotonic()
        os.kill(first, signal.SIGKILL)
        _next(supervisor, r"sleeper exited with code -9; restarting in 0\.5 s\.")
        second = _restarted(supervisor)
        assert time.monotonic() - killed_at >= 0.5
        assert second != first and _alive(second)

        killed_at = time.monotonic()
        os.kill(second, signal.SIGKILL)  # again, right after its start: the backoff doubles
        _next(
            supervisor,
            r"sleeper exited with code -9 \(2 times in a row, each soon after starting\); "
            r"restarting in 1 s\.",
        )
        third = _restarted(supervisor)
        assert time.monotonic() - killed_at >= 1.0
        assert _alive(third)

        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(timeout=20) == 0
        deadline = time.monotonic() + 5
        while _alive(third) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(third)
    finally:
        if supervisor.poll() is None:
            supervisor.kill()


def _delays(output: str) -> list[float]:
    return [float(d) for d in re.findall(r"restarting in ([\d.]+) s", output)]


def test_a_child_that_keeps_crashing_is_backed_off_up_to_the_cap_never_in_a_busy_loop():
    supervisor = _supervise("echo started; exit 3", first=0.1, cap=0.4, stable=60)
    time.sleep(3)
    supervisor.send_signal(signal.SIGTERM)
    output, _ = supervisor.communicate(timeout=20)
    assert supervisor.returncode == 0
    delays = _delays(output)
    assert delays[:4] == [0.1, 0.2, 0.4, 0.4]
    assert set(delays[2:]) == {0.4}
    # 3 s of 0.4 s waits is a handful of starts, not thousands.
    assert 5 <= output.splitlines().count("started") <= 10
    assert "sleeper exited with code 3 (3 times in a row, each soon after starting)" in output
    assert "stopped" in output


def test_a_child_that_stayed_up_a_while_starts_again_from_the_first_delay():
    supervisor = _supervise("sleep 0.6; exit 3", first=0.1, cap=30, stable=0.5)
    time.sleep(4)
    supervisor.send_signal(signal.SIGTERM)
    output, _ = supervisor.communicate(timeout=20)
    delays = _delays(output)
    assert len(delays) >= 2
    assert set(delays) == {0.1}


SUPERVISE_MILVUS = f"""
import sys
from functools import partial
from pathlib import Path

import pytest
sys.path.insert(0, {str(SCRIPTS)!r})
import run_embedded
from openguru.providers.vectorstore.lite_server import start_lite_server
run_embedded.stop_on_signals()
supervisor = run_embedded.Supervisor(first_delay=0.5, poll=0.05)
try:
    start = partial(start_lite_server, data_file=Path(sys.argv[1]), port=int(sys.argv[2]))
    supervisor.adopt("milvus", start)
    print("pid", supervisor.children[0][1].pid, flush=True)
    supervisor.watch()
except KeyboardInterrupt:
    pass
finally:
    supervisor.stop()
"""


def test_an_adopted_milvus_lite_server_is_started_again_on_its_port_and_data_file(tmp_path):
    from openguru.providers.vectorstore.lite_server import free_port, wait_for_port

    port = free_port()
    argv = [sys.executable, "-c", SUPERVISE_MILVUS, str(tmp_path / "m.db"), str(port)]
    supervisor = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    try:
        first = int(_next(supervisor, r"pid (\d+)")[1])
        os.kill(first, signal.SIGKILL)
        _next(supervisor, r"milvus exited with code -9; restarting in 0\.5 s\.")
        _next(supervisor, r"milvus restarted\.")
        wait_for_port("127.0.0.1", port, timeout=5)  # start_lite_server returned: it listens

        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(timeout=30) == 0
        with pytest.raises(TimeoutError):
            wait_for_port("127.0.0.1", port, timeout=1)
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
