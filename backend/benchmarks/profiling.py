"""`--profile`: where a server's CPU goes while a section is timed, sampled from outside by
py-spy (`--subprocesses`: the gunicorn master and its workers; `--nonblocking`: the sampled
processes are never paused, so the timing is barely touched).

py-spy writes one format per run; it records collapsed stacks (`--format raw`), which give both
the flame graph, drawn here as an SVG, and the functions with the most samples of their own
(the leaf frame: where the CPU was, not what called it)."""

import html
import shutil
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RATE_HZ = 100
TOP_FUNCTIONS = 25
STOP_TIMEOUT_SECONDS = 60


def py_spy_binary() -> str | None:
    """The venv's py-spy (a dev requirement), else one on PATH."""
    beside = Path(sys.executable).with_name("py-spy")
    return str(beside) if beside.exists() else shutil.which("py-spy")


@dataclass
class Profile:
    """What one recording found; `summary()` is what goes into the report."""

    svg: Path
    stacks: Counter[str] = field(default_factory=Counter)
    error: str = ""

    @property
    def samples(self) -> int:
        return sum(self.stacks.values())

    def own_samples(self) -> Counter[str]:
        own: Counter[str] = Counter()
        for stack, count in self.stacks.items():
            own[stack.rsplit(";", 1)[-1]] += count
        return own

    def summary(self) -> dict[str, Any]:
        if self.error:
            return {"error": self.error}
        total = max(self.samples, 1)
        return {
            "flame_graph": self.svg.name,
            "sampler": f"py-spy, {RATE_HZ} Hz, subprocesses, nonblocking",
            "samples": self.samples,
            "top_own_time": [
                {"function": name, "samples": count, "share": round(count / total, 4)}
                for name, count in self.own_samples().most_common(TOP_FUNCTIONS)
            ],
        }


def parse_collapsed(text: str) -> Counter[str]:
    """py-spy's raw output: one `frame;frame;... count` line per distinct stack."""
    stacks: Counter[str] = Counter()
    for line in text.splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            stacks[stack] += int(count)
    return stacks


@contextmanager
def profiled(pid: int, svg: Path) -> Iterator[Profile]:
    """Sample process `pid` and its children for the duration of the block; on leaving it the
    flame graph is written to `svg` (a failure is reported in the profile, never raised)."""
    profile = Profile(svg=svg)
    binary = py_spy_binary()
    if binary is None:
        profile.error = "py-spy is not installed (backend/requirements-dev.txt)"
        yield profile
        return
    raw = svg.with_suffix(".collapsed.txt")
    svg.parent.mkdir(parents=True, exist_ok=True)
    argv = [binary, "record", "--pid", str(pid), "--subprocesses", "--nonblocking"]
    argv += ["--rate", str(RATE_HZ), "--nolineno", "--format", "raw", "--output", str(raw)]
    sampler = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert sampler.stdout is not None
    first = sampler.stdout.readline()  # "Sampling process ..." once attached (or why not)
    try:
        yield profile
    finally:
        sampler.send_signal(signal.SIGINT)  # py-spy writes its output on Ctrl-C
        try:
            output, _ = sampler.communicate(timeout=STOP_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            sampler.kill()
            output, _ = sampler.communicate()
        if raw.exists():
            profile.stacks = parse_collapsed(raw.read_text(errors="replace"))
            svg.write_text(flame_graph_svg(profile.stacks, title=svg.stem))
        else:
            lines = (first + (output or "")).strip().splitlines()
            profile.error = f"py-spy wrote nothing (exit {sampler.returncode}): " + (
                lines[-1] if lines else "no output"
            )


@contextmanager
def profiled_if(pid: int, svg: Path | None) -> Iterator[Profile | None]:
    """`profiled` when `svg` names where the flame graph goes, else nothing."""
    if svg is None:
        yield None
        return
    with profiled(pid, svg) as profile:
        yield profile


# --- the flame graph ------------------------------------------------------------------------------

WIDTH, ROW, FONT = 1200.0, 16, 11
CHAR_PX = FONT * 0.6


@dataclass
class _Node:
    name: str
    count: int = 0
    children: dict[str, "_Node"] = field(default_factory=dict)


def _tree(stacks: Counter[str]) -> _Node:
    root = _Node("all")
    for stack, count in stacks.items():
        root.count += count
        node = root
        for frame in stack.split(";"):
            node = node.children.setdefault(frame, _Node(frame))
            node.count += count
    return root


def _depth(node: _Node) -> int:
    return 1 + max((_depth(child) for child in node.children.values()), default=0)


def _color(name: str) -> str:
    seed = sum(map(ord, name))
    return f"rgb({205 + seed % 50},{(seed * 7) % 180 + 40},{(seed * 13) % 55})"


def _rects(node: _Node, x: float, depth: int, scale: float, height: int) -> Iterator[str]:
    width = node.count * scale
    if width < 0.3:  # narrower than a third of a pixel: invisible anyway
        return
    y = height - (depth + 1) * ROW
    label = html.escape(node.name)
    chars = int((width - 4) / CHAR_PX)
    text = html.escape(node.name[:chars] if chars < len(node.name) else node.name)
    yield (
        f"<g><title>{label} ({node.count} samples)</title>"
        f'<rect x="{x:.1f}" y="{y}" width="{width:.1f}" height="{ROW - 1}" '
        f'fill="{_color(node.name)}"/>'
        + (f'<text x="{x + 2:.1f}" y="{y + ROW - 4}">{text}</text>' if chars >= 3 else "")
        + "</g>"
    )
    for child in sorted(node.children.values(), key=lambda c: c.name):
        yield from _rects(child, x, depth + 1, scale, height)
        x += child.count * scale


def flame_graph_svg(stacks: Counter[str], *, title: str) -> str:
    """A flame graph (callers below, callees above; width = samples) with a tooltip per frame."""
    root = _tree(stacks)
    height = (_depth(root) + 2) * ROW
    scale = WIDTH / max(root.count, 1)
    body = "\n".join(_rects(root, 0.0, 0, scale, height))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH:.0f}" height="{height}" '
        f'font-family="monospace" font-size="{FONT}">\n'
        f'<text x="4" y="{FONT + 2}">{html.escape(title)}: {root.count} samples</text>\n'
        f"{body}\n</svg>\n"
    )
