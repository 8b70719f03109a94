"""`/widget.js`: the embeddable widget's one-file bundle (built from `frontend/widget/`).

Host pages load it cross-origin with a plain `<script>` tag, so it is served with
`Cross-Origin-Resource-Policy: cross-origin`, a short cache and an ETag: a rebuilt widget
reaches visitors within minutes, and until then a revalidation costs a 304.
"""

import hashlib
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.views.decorators.http import require_safe

from openguru.core.errors import DomainError, ErrorCode
from openguru.core.exception_handler import json_error

MAX_AGE_SECONDS = 300


@lru_cache(maxsize=2)
def _bundle(path: str, mtime_ns: int, size: int) -> tuple[bytes, str]:
    """The file and its ETag, read again only when its modification time or size changes."""
    body = Path(path).read_bytes()
    return body, f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def widget_bundle() -> tuple[bytes, str]:
    path = Path(settings.WIDGET_JS_PATH)
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise DomainError(
            ErrorCode.NOT_CONFIGURED,
            "The widget is not built: run `make install` (or `npm run build:widget` in frontend/).",
        ) from None
    return _bundle(str(path), stat.st_mtime_ns, stat.st_size)


@require_safe
def widget_js(request: HttpRequest) -> HttpResponse:
    try:
        body, etag = widget_bundle()
    except DomainError as error:
        return json_error(error)
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = f"public, max-age={MAX_AGE_SECONDS}"
    response["Cross-Origin-Resource-Policy"] = "cross-origin"
    return response
