from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from openguru.core.errors import DomainError, ErrorCode
from openguru.core.openapi import errors
from openguru.gurus.default_icon import guru_default_icon_svg
from openguru.gurus.permissions import READ_GURU
from openguru.gurus.selectors import guru_get


class GuruDefaultIconApi(APIView):
    """The guru's initial on its colour; what `icon_url` points at when no icon was set."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        operation_id="guru_default_icon",
        tags=["gurus"],
        summary="A guru's default icon (its initial on its colour, SVG)",
        auth=[],
        responses={
            (200, "image/svg+xml"): OpenApiResponse(bytes, description="The icon."),
            **errors(404),
        },
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        guru = guru_get(slug=slug)
        # Drawn by an <img>, which sends no credentials: only what anyone may see.
        if not AnonymousUser().has_perm(READ_GURU, guru):
            raise DomainError(ErrorCode.GURU_NOT_FOUND, f"No guru named '{slug}'.")
        response = HttpResponse(guru_default_icon_svg(guru=guru), content_type="image/svg+xml")
        # Drawn by third-party pages (the widget); as a document it may run nothing.
        response["Cross-Origin-Resource-Policy"] = "cross-origin"
        response["Content-Security-Policy"] = "default-src 'none'; sandbox"
        response["Cache-Control"] = "public, max-age=300"  # the URL changes with name and colour
        return response
