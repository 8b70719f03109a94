"""Run the embedded Milvus Lite engine as a loopback server.

Milvus Lite locks its data file, so the web process and Celery workers cannot open it side by
side; its bundled binary also serves the Milvus gRPC protocol on a TCP address, which every
process then reaches with a plain `MilvusClient(uri="http://127.0.0.1:PORT")`.
"""

import os
import socket
import subprocess
import time
from pathlib import Path

import milvus_lite


def _binary_dir() -> Path:
    return Path(milvus_lite.__file__).resolve().parent / "lib"


def start_lite_server(*, data_file: Path, host: str = "127.0.0.1", port: int) -> subprocess.Popen:
    """Start the server and return once it accepts connections."""
    data_file.parent.mkdir(parents=True, exist_ok=True)
    lib = _binary_dir()
    env = {**os.environ, "LD_LIBRARY_PATH": f"{lib}:{os.environ.get('LD_LIBRARY_PATH', '')}"}
    process = subprocess.Popen(
        [str(lib / "milvus"), str(data_file), f"{host}:{port}", "ERROR"],
        env=env,
        stdin=subprocess.DEVNULL,
        start_new_session=True,  # Ctrl-C is handled by our supervisor, which stops it in order
    )
    try:
        wait_for_port(host, port, process=process)
    except BaseException:  # a server that never listened must not outlive the failed start
        process.kill()
        process.wait()
        raise
    return process


def wait_for_port(
    host: str, port: int, *, process: subprocess.Popen | None = None, timeout: float = 60.0
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"Milvus Lite exited with code {process.returncode}")
        try:
            with socket.create_connection((host, port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"nothing listens on {host}:{port} after {timeout}s")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
