"""Disposable PostgreSQL, Redis and RabbitMQ servers for failure drills.

Other test runs share the machine's own servers, so a drill never stops those: it starts one of
its own on free loopback ports in a temporary directory, and kills or restarts that one.
"""

import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from openguru.providers.vectorstore.lite_server import free_port, wait_for_port

PG_BIN = Path("/usr/lib/postgresql/15/bin")
RABBITMQ_START_SECONDS = 120  # measured 20 s on a loaded 2-core machine; a cold start varies


def _as_user(user: str, argv: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root."""
    return ["runuser", "-u", user, "--", *argv] if os.geteuid() == 0 else argv


def _owned_tmpdir(prefix: str, user: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix=prefix))
    if os.geteuid() == 0:
        shutil.chown(path, user, user)
    return path


class DisposablePostgres:
    """A PostgreSQL cluster of a drill's own: `kill` stops it at once, as a crash would (every
    connection dropped, no checkpoint), `start` brings the same data back on the same port."""

    def __init__(self) -> None:
        self.root = _owned_tmpdir("openguru-drill-pg-", "postgres")
        self.data = self.root / "data"
        self.port = free_port()
        self._run(
            str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres",
            "--auth=trust", "--no-sync", "-E", "UTF8",
        )  # fmt: skip

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/openguru"

    def _run(self, *argv: str) -> None:
        subprocess.run(_as_user("postgres", list(argv)), check=True, capture_output=True)

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c max_connections=100"
        )
        self._run(
            str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-o", options,
            "-l", str(self.root / "server.log"), "-w", "start",
        )  # fmt: skip

    def kill(self) -> None:
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def load(self, source_url: str) -> None:
        """A database `openguru` with the schema and rows of `source_url` (the migrated test
        database): migrating from scratch takes minutes on a busy machine, a copy a second."""
        psql = [str(PG_BIN / "psql"), "-q", "-v", "ON_ERROR_STOP=1"]
        admin = f"postgres://postgres@127.0.0.1:{self.port}/postgres"
        subprocess.run([*psql, admin, "-c", "CREATE DATABASE openguru"], check=True)
        dump = subprocess.run(
            [str(PG_BIN / "pg_dump"), "--no-owner", "--no-privileges", source_url],
            check=True,
            capture_output=True,
        )
        subprocess.run([*psql, self.url], input=dump.stdout, check=True, capture_output=True)

    def remove(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self.kill()
        shutil.rmtree(self.root, ignore_errors=True)


class DisposableRedis:
    """A Redis server of a drill's own, with nothing persisted (like a broker that lost its
    memory when it went down)."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="openguru-drill-redis-"))
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.root), "--loglevel", "warning"],
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        wait_for_port("127.0.0.1", self.port, timeout=30)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def remove(self) -> None:
        self.kill()
        shutil.rmtree(self.root, ignore_errors=True)


class DisposableRabbitMQ:
    """A second RabbitMQ node (its own name, ports, database and log) beside the machine's.
    `conf`: more lines for its rabbitmq.conf; `erl_args`: settings of the `rabbit` application
    that rabbitmq.conf does not take (e.g. `-rabbit channel_tick_interval 1000`)."""

    def __init__(self, *, conf: str = "", erl_args: str = "") -> None:
        self.root = _owned_tmpdir("openguru-drill-rabbitmq-", "rabbitmq")
        self.port, dist_port = free_port(), free_port()
        self.node = f"drill{self.port}@localhost"
        config, plugins = self.root / "rabbitmq.conf", self.root / "enabled_plugins"
        # The machine's rabbitmq.conf names its own listener; this node reads its own file.
        config.write_text(f"listeners.tcp.local = 127.0.0.1:{self.port}\n{conf}")
        plugins.write_text("[].\n")
        self.env = {
            **os.environ,
            "RABBITMQ_NODENAME": self.node,
            "RABBITMQ_NODE_PORT": str(self.port),
            "RABBITMQ_DIST_PORT": str(dist_port),
            "RABBITMQ_CONFIG_FILE": str(config),
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(plugins),
            "RABBITMQ_MNESIA_BASE": str(self.root / "mnesia"),
            "RABBITMQ_LOG_BASE": str(self.root / "log"),
            **({"RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS": erl_args} if erl_args else {}),
        }
        if os.geteuid() == 0:
            for path in (config, plugins):
                shutil.chown(path, "rabbitmq", "rabbitmq")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"amqp://guest:guest@127.0.0.1:{self.port}//"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["rabbitmq-server"],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_for_port("127.0.0.1", self.port, timeout=RABBITMQ_START_SECONDS)

    def kill(self) -> None:
        """Down at once, as a crash would be (the node's whole process group)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        subprocess.run(
            ["rabbitmqctl", "-n", self.node, "stop"], env=self.env, capture_output=True, timeout=60
        )
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


Server = TypeVar("Server", DisposablePostgres, DisposableRedis, DisposableRabbitMQ)


@contextmanager
def disposable(server: Server) -> Iterator[Server]:
    """Start the server; remove it, and everything it wrote, afterwards."""
    try:
        server.start()
        yield server
    finally:
        server.remove()
