"""Uploaded source files (PDFs, office files, HTML, Markdown, EPUB), served to whoever may read
them.

A public file is a citation target (`<file url>#page=N`, `#slide-N`, `#heading`), open to anyone;
a private one only to an admin (session, admin token, or a staff user's API key). Anyone else gets
the same 404 as for a file that does not exist. An uploaded HTML page is shown in a sandbox: its
scripts never run on this site's origin.
"""

from pathlib import PurePath
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import FileResponse, Http404, HttpResponse, HttpResponseBase
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from openguru.gurus.permissions import READ_GURU
from openguru.sources.file_kinds import file_kind_for_type
from openguru.sources.models import DataSource
from openguru.sources.selectors import source_file_readable


class SourceFileApi(APIView):
    permission_classes = [AllowAny]
    schema = None  # a file download under /media/, not part of the JSON API

    def get(self, request: Request, path: str) -> HttpResponseBase:
        staff = bool(request.user and request.user.is_authenticated and request.user.is_staff)
        source = source_file_readable(path=path, staff=staff)
        reader = request.user or AnonymousUser()
        if source is not None and not reader.has_perm(READ_GURU, source.guru):
            source = None  # a private guru's files are for the people granted it
        if source is None or not source.file.storage.exists(source.file.name or ""):
            raise Http404("No such file.")
        response = _file_response(source)
        # A private file must not sit in a shared cache; a public one may, briefly.
        response["Cache-Control"] = "private, no-store" if source.private else "public, max-age=300"
        response["Vary"] = "Cookie, Authorization, X-API-KEY"
        return response


def _file_response(source: DataSource) -> HttpResponseBase:
    stored = source.file.name or ""
    name = PurePath(stored).name
    prefix = settings.MEDIA_ACCEL_REDIRECT_PREFIX
    kind = file_kind_for_type(source.type)
    content_type = kind.content_type if kind else "application/octet-stream"
    if content_type == "text/html":
        # Sent from here, not by nginx: nginx drops a header like this one on X-Accel-Redirect.
        sandboxed = FileResponse(source.file.open("rb"), content_type=content_type, filename=name)
        sandboxed["Content-Security-Policy"] = "sandbox"
        return sandboxed
    if not prefix:
        return FileResponse(source.file.open("rb"), content_type=content_type, filename=name)
    # nginx sends the file from its internal location; Django only decided that it may.
    response = HttpResponse(content_type=content_type)
    response["X-Accel-Redirect"] = f"{prefix.rstrip('/')}/{quote(stored)}"
    response["Content-Disposition"] = f"inline; filename*=UTF-8''{quote(name)}"
    return response
