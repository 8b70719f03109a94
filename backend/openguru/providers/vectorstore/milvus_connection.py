"""The Milvus client connection of one vector store: opened on first use in each process,
renewed after the server went away, errors translated to ours."""

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from pymilvus import MilvusClient

from openguru.core.errors import TransientError
from openguru.core.logs import adopt_library_loggers
from openguru.providers.vectorstore.milvus_errors import translated_errors

# pymilvus sets up text handlers of its own when imported (above): use ours.
adopt_library_loggers("pymilvus", "pymilvus.milvus_client", "pymilvus.bulk_writer")


class MilvusConnection:
    def __init__(self, *, uri: str, token: str, timeout: int) -> None:
        self._uri = uri
        self._token = token
        self._timeout = timeout
        self._lock = threading.Lock()
        self._connection: tuple[int, MilvusClient, float] | None = None  # pid, client, since
        self._retired: list[tuple[float, MilvusClient]] = []

    @property
    def client(self) -> MilvusClient:
        """Created on first use, once per process: a gRPC channel does not survive a fork (Celery
        prefork workers), so a child process opens its own."""
        connection = self._connection
        pid = os.getpid()
        if connection is not None and connection[0] == pid:
            return connection[1]
        with self._lock:
            if self._connection is None or self._connection[0] != pid:
                with translated_errors("connect"):
                    client = MilvusClient(
                        uri=self._uri,
                        token=self._token,
                        timeout=min(self._timeout, 10),  # connecting; calls pass their own
                        # pymilvus shares one connection per URI process-wide; our own alias
                        # keeps this store's channel (and `close`) to itself.
                        alias=f"openguru-{pid}-{id(self)}",
                    )
                self._connection = (pid, client, time.monotonic())
            return self._connection[1]

    def close(self) -> None:
        with self._lock:
            if self._connection is not None and self._connection[0] == os.getpid():
                self._connection[1].close()
            self._connection = None
            retired, self._retired = self._retired, []
        for _since, client in retired:
            client.close()

    def renew(self) -> None:
        """After a server went away, gRPC waits longer and longer between reconnects (up to two
        minutes); a new channel connects at once when the server is back. The old channel may
        still carry calls in other threads: it is closed once they have timed out."""
        now = time.monotonic()
        with self._lock:
            connection = self._connection
            if connection is None or connection[0] != os.getpid() or now - connection[2] < 1:
                return  # renewed a moment ago: one new channel per second is plenty
            self._connection = None
            self._retired.append((now, connection[1]))
            done = [c for since, c in self._retired if now - since > 2 * self._timeout]
            self._retired = [(t, c) for t, c in self._retired if now - t <= 2 * self._timeout]
        for client in done:
            client.close()

    @contextmanager
    def translated(self, action: str) -> Iterator[None]:
        try:
            with translated_errors(action):
                yield
        except TransientError:
            self.renew()
            raise
