"""Every environment variable the backend reads is documented in `.env.example`, and read
through the one reader (`config/env.py`)."""

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CODE = [REPO / "backend" / "config", REPO / "backend" / "openguru"]


def python_files() -> list[Path]:
    return [path for root in CODE for path in root.rglob("*.py") if "migrations" not in path.parts]


def is_env_reader(func: ast.expr) -> bool:
    """`env("X")`, `env.int("X")`, `env.list("X")`…: the reader of config/env.py."""
    if isinstance(func, ast.Name):
        return func.id == "env"
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and (func.value.id == "env")
    )


def variables_read() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in python_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and is_env_reader(node.func) and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.setdefault(first.value, str(path.relative_to(REPO)))
    return found


def variables_documented() -> set[str]:
    text = (REPO / ".env.example").read_text()
    return set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", text, re.MULTILINE))


def test_every_variable_read_is_in_env_example():
    read = variables_read()
    assert len(read) > 100, "the reader's calls were not found: is the scan still right?"
    missing = {name: where for name, where in read.items() if name not in variables_documented()}
    assert missing == {}, f"read but not documented in .env.example: {missing}"


def test_nothing_else_reads_the_environment_for_configuration():
    """`os.environ[...]`, `os.environ.get` and `os.getenv` outside config/env.py would be settings
    that `.env.example` and the startup checks never see. Setting a default for a library
    (`os.environ.setdefault`) or handing the environment to a child process is not reading."""
    readers = re.compile(r"os\.environ\.get\(|os\.getenv\(|os\.environ\[\s*[\"']")
    # The system's own variables, extended for a child process, are not our configuration.
    system = re.compile(r"os\.environ\.get\([\"'](LD_LIBRARY_PATH|PATH)[\"']")
    offenders = [
        f"{path.relative_to(REPO)}:{number}"
        for path in python_files()
        if path.name != "env.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if readers.search(system.sub("", line))
    ]
    assert offenders == []
