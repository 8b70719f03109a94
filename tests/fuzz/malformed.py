"""Malformed inputs, generated on the spot (nothing big is committed): hand-written PDFs with
decompression bombs and pathological nesting, a loopback server that streams a sitemap of any
size, lazily, counting what it sent, and a gigabytes-large file in a git repository."""

import hashlib
import struct
import subprocess
import threading
import zlib
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from tests.fakes.loopback import LoopbackServer

GIGABYTE = 1 << 30
_FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


# --- PDFs -----------------------------------------------------------------------------------------


def deflated(piece: bytes, total: int) -> bytes:
    """A zlib stream of `piece` repeated to about `total` bytes, built without compressing them
    all: after a full flush a deflate block no longer refers to what came before, so one
    compressed megabyte is repeated as is; only the checksum is computed over every byte."""
    block = piece * max(1, (1 << 20) // len(piece))
    count = max(1, total // len(block))
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate: header and trailer below
    compressor.compress(block)
    compressor.flush(zlib.Z_FULL_FLUSH)
    repeated = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
    checksum = 1
    for _ in range(count):
        checksum = zlib.adler32(block, checksum)
    return b"\x78\xda" + repeated * count + compressor.flush() + struct.pack(">I", checksum)


def _stream(data: bytes) -> bytes:
    return b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(data), data)


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF file with a correct cross-reference table; object 1 is the catalog."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def shared_stream_pdf(pages: int, content: bytes) -> bytes:
    """`pages` pages that all draw the same content stream (object 3): a small file whose cost
    is multiplied by its page count."""
    kids = b" ".join(b"%d 0 R" % (5 + n) for n in range(pages))
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R"
        b" /Resources << /Font << /F1 4 0 R >> >> >>"
    )
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages),
            _stream(content),
            _FONT,
            *[page] * pages,
        ]
    )


def flate_bomb_pdf(*, pages: int = 1, inflated: int = GIGABYTE) -> bytes:
    """About 1 MB on disk; its content stream inflates to `inflated` bytes of spaces."""
    return shared_stream_pdf(pages, deflated(b" ", inflated))


def heavy_text_pdf(*, pages: int, operations: int) -> bytes:
    """Pages sharing one stream of `operations` text-showing operators: under every pypdf size
    cap, yet seconds of text extraction per page."""
    operator = b"BT /F1 12 Tf (words) Tj ET\n"
    return shared_stream_pdf(pages, zlib.compress(operator * operations, 9))


def nested_objects_pdf(depth: int) -> bytes:
    """A page dictionary holding an array nested `depth` levels deep."""
    deep = b"[" * depth + b"]" * depth
    text = zlib.compress(b"BT /F1 12 Tf 72 720 Td (The aardvark digs at night.) Tj ET")
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> >> /Junk " + deep + b" >>",
            _stream(text),
            _FONT,
        ]
    )


# --- A sitemap streamed lazily --------------------------------------------------------------------


class StreamingSitemaps(LoopbackServer):
    """Serves /sitemap.xml (a URL set of `size` bytes, generated as it is sent, with no
    Content-Length) and /index.xml (a sitemap index of `children` such URL sets); any other
    path is a small HTML page. `sent` counts the sitemap bytes that went out."""

    def __init__(self, *, size: int = GIGABYTE, children: int = 0) -> None:
        self.size, self.children = size, children
        self.sent = 0
        self.lock = threading.Lock()
        self._listen(_SitemapHandler, host="127.0.0.1", port=0, app=self)

    def count(self, sent: int) -> None:
        with self.lock:
            self.sent += sent


class _SitemapHandler(BaseHTTPRequestHandler):
    app: StreamingSitemaps
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        base = f"http://{self.headers['Host']}"
        if self.path == "/index.xml":
            entries = "".join(
                f"<sitemap><loc>{base}/huge-{n}.xml</loc></sitemap>"
                for n in range(self.app.children)
            )
            self._send(f'<?xml version="1.0"?><sitemapindex>{entries}</sitemapindex>', "xml")
        elif self.path.endswith(".xml"):
            self._stream_urlset(base)
        else:
            self._send("<html><body><main><p>A small page.</p></main></body></html>", "html")

    def _send(self, text: str, kind: str) -> None:
        body = text.encode()
        self.send_response(200)
        self.send_header("Content-Type", f"application/{kind}" if kind == "xml" else "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _stream_urlset(self, base: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Connection", "close")  # no length: the body ends when the socket does
        self.end_headers()
        self.close_connection = True
        head = b'<?xml version="1.0"?><urlset>'
        entry = f"<url><loc>{base}/page.html</loc></url>\n".encode()
        block = entry * (65536 // len(entry))
        sent = 0
        try:
            self.wfile.write(head)
            while sent < self.app.size:
                self.wfile.write(block)
                sent += len(block)
                self.app.count(len(block))
        except (BrokenPipeError, ConnectionResetError):
            return  # the reader stopped at its cap


# --- A git repository with a sparse 2 GB file -----------------------------------------------------


def commit_sparse_file(repo: Path, name: str, size: int) -> str:
    """Add a file of `size` zero bytes to `repo`'s index: the working file is sparse (truncate),
    and its loose object is written directly (the zlib stream built as in `deflated`), since
    `git add` would spend minutes compressing gigabytes of zeros. Returns the blob id."""
    with (repo / name).open("wb") as handle:
        handle.truncate(size)
    header = b"blob %d\x00" % size
    zeros = bytes(1 << 20)
    digest, checksum = hashlib.sha1(header), zlib.adler32(header)
    for _ in range(size // len(zeros)):
        digest.update(zeros)
        checksum = zlib.adler32(zeros, checksum)
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    start = compressor.compress(header) + compressor.flush(zlib.Z_FULL_FLUSH)
    compressor.compress(zeros)
    compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
    blob = digest.hexdigest()
    target = repo / ".git" / "objects" / blob[:2] / blob[2:]
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as handle:
        handle.write(b"\x78\xda" + start)
        for _ in range(size // len(zeros)):
            handle.write(block)
        handle.write(compressor.flush() + struct.pack(">I", checksum))
    git = ["git", "-C", str(repo), "update-index", "--add", "--cacheinfo"]
    subprocess.run([*git, f"100644,{blob},{name}"], check=True)
    return blob
