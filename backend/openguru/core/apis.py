from typing import Any

from django.http import HttpRequest, JsonResponse
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.errors import DomainError, ErrorCode
from openguru.core.health import health_report, is_healthy


class HealthApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    def get(self, request: Request) -> Response:
        report = health_report()
        healthy = is_healthy(report)
        return Response(
            {"status": "ok" if healthy else "degraded", "components": report},
            status=200 if healthy else 503,
        )


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    error = DomainError(ErrorCode.NOT_FOUND, "Not found.")
    return JsonResponse(error.as_dict(), status=404)


def server_error(request: HttpRequest) -> JsonResponse:
    error = DomainError(ErrorCode.INTERNAL, "Something went wrong on our side.")
    return JsonResponse(error.as_dict(), status=500)
