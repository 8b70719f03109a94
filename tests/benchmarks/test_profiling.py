"""`--profile`: py-spy samples a process tree while a block runs and leaves a flame graph beside
the report, with the functions that had the CPU in it."""

import subprocess
import sys
import textwrap
from pathlib import Path

from benchmarks.config import BenchConfig
from benchmarks.profiling import parse_collapsed, profiled

# A parent and its forked child, both busy in a function the profile must name.
BUSY = textwrap.dedent(
    """
    import os, sys, time

    def spin_for_the_profile():
        end = time.monotonic() + 30
        while time.monotonic() < end:
            sum(i * i for i in range(1000))

    if os.fork():
        print("ready", flush=True)  # the parent only: the child is already running
    spin_for_the_profile()
    """
)


def test_the_option_puts_the_flame_graph_beside_the_report(tmp_path: Path) -> None:
    config = BenchConfig.build(sections=("overload",), output=tmp_path / "b.json", profile=True)
    assert config.profile_svg("overload") == tmp_path / "b-overload-profile.svg"
    plain = BenchConfig.build(sections=("overload",), output=tmp_path / "b.json")
    assert plain.profile_svg("overload") is None


def test_a_profile_of_a_process_tree_writes_the_svg_and_the_top_functions(tmp_path: Path) -> None:
    busy = subprocess.Popen([sys.executable, "-c", BUSY], stdout=subprocess.PIPE, text=True)
    try:
        assert busy.stdout is not None and busy.stdout.readline() == "ready\n"
        svg = tmp_path / "bench-overload-profile.svg"
        with profiled(busy.pid, svg) as profile:
            subprocess.run([sys.executable, "-c", "import time; time.sleep(1.5)"], check=True)
    finally:
        busy.kill()
        busy.wait()
    summary = profile.summary()
    assert "error" not in summary, summary
    assert svg.read_text().startswith("<svg") and "spin_for_the_profile" in svg.read_text()
    assert summary["flame_graph"] == svg.name and summary["samples"] > 0
    top = summary["top_own_time"]
    assert top and all(0 < row["share"] <= 1 for row in top)
    assert any(
        "spin_for_the_profile" in row["function"] or "<genexpr>" in row["function"]
        for row in top[:3]
    )
    # both processes of the tree were sampled
    assert len({stack.split(";", 1)[0] for stack in profile.stacks}) == 2


def test_collapsed_stacks_are_read_with_their_counts() -> None:
    text = "a (x.py);b (y.py) 3\na (x.py);c (z.py) 2\nnot a line\na (x.py);b (y.py) 1\n"
    stacks = parse_collapsed(text)
    assert stacks == {"a (x.py);b (y.py)": 4, "a (x.py);c (z.py)": 2}
