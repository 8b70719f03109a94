"""A `requests` response read up to a cap, for the loaders whose SDKs speak `requests`
(YouTube's transcript client, Firecrawl's): a far end that sends without end costs a refusal,
not the worker's memory. (`ssrf.py` caps the crawler's own httpx reads.)"""

import requests

from openguru.core.errors import DomainError, ErrorCode

_PIECE_BYTES = 64 * 1024


def response_read_capped(response: requests.Response, *, max_bytes: int, too_large: str) -> None:
    """Read a streamed body into the response (what `.text` and `.json()` read, as after a
    plain get), or raise FILE_TOO_LARGE with `too_large` once it passes `max_bytes`."""
    body = bytearray()
    try:
        for piece in response.iter_content(_PIECE_BYTES):
            body += piece
            if len(body) > max_bytes:
                raise DomainError(ErrorCode.FILE_TOO_LARGE, too_large)
    finally:
        response.close()
    response._content = bytes(body)
