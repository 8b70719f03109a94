from django.http import HttpRequest, JsonResponse

from openguru.core.errors import DomainError, ErrorCode


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    error = DomainError(ErrorCode.NOT_FOUND, "Not found.")
    return JsonResponse(error.as_dict(), status=404)


def server_error(request: HttpRequest) -> JsonResponse:
    error = DomainError(ErrorCode.INTERNAL, "Something went wrong on our side.")
    return JsonResponse(error.as_dict(), status=500)
