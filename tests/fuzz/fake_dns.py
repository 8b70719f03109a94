"""The resolver's far end, answered from a table: `socket.getaddrinfo` as the C library would
answer it for the names in the table, and the real one for numeric hosts.

IP literals in every spelling (0x7f.1, 2130706433, ::ffff:127.0.0.1) still go to the C library,
with AI_NUMERICHOST so nothing leaves the machine: how it reads them is part of what is tested.
A name is looked up as the resolver sees it: encoded the way CPython's socket module encodes a
str host (the "idna" codec), case-insensitive, with or without the root's trailing dot. Any
other name does not exist, so no test ever waits on real DNS.
"""

import contextlib
import socket
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

_REAL_GETADDRINFO = socket.getaddrinfo


class FakeDns:
    def __init__(self, table: Mapping[str, Sequence[str]]) -> None:
        self.table = {
            name.lower().rstrip("."): list(addresses) for name, addresses in table.items()
        }
        self.queries: list[str] = []

    def getaddrinfo(
        self, host: Any, port: Any, family: int = 0, type: int = 0, proto: int = 0, flags: int = 0
    ) -> list[Any]:
        text = host.decode("ascii") if isinstance(host, bytes) else str(host)
        with contextlib.suppress(socket.gaierror):
            return _REAL_GETADDRINFO(text, port, family, type, proto, flags | socket.AI_NUMERICHOST)
        name = text.encode("idna").decode("ascii").lower()  # UnicodeError, as the real one
        self.queries.append(name)
        addresses = self.table.get(name.removesuffix("."))
        if not addresses:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        number = int(port or 0)
        return [_info(address, number, type) for address in addresses]


def _info(address: str, port: int, type: int) -> tuple[Any, ...]:
    if ":" in address:
        return (socket.AF_INET6, type or socket.SOCK_STREAM, 6, "", (address, port, 0, 0))
    return (socket.AF_INET, type or socket.SOCK_STREAM, 6, "", (address, port))


@contextlib.contextmanager
def fake_dns(table: Mapping[str, Sequence[str]]) -> Iterator[FakeDns]:
    dns = FakeDns(table)
    socket.getaddrinfo = dns.getaddrinfo
    try:
        yield dns
    finally:
        socket.getaddrinfo = _REAL_GETADDRINFO
