"""The embeddable widget's credential: `Authorization: <widget id>` from a page whose origin the
widget id allows. A widget id is public (it is in the page's HTML); what it grants is asking
its guru from the domains its owner listed, which a browser's Origin header vouches for.
A private guru's widget also needs an identity token the embedding site signed with the
widget id's secret (`tokens.py`): the page alone proves nothing about who reads it."""

from typing import Any, NoReturn
from urllib.parse import urlsplit

from django.http import HttpRequest
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from openguru.accounts.access import guru_is_public
from openguru.core.errors import DomainError, ErrorCode
from openguru.integrations.crypto import secret_decrypt
from openguru.integrations.models import WidgetId
from openguru.integrations.widget.domains import origin_allowed
from openguru.integrations.widget.selectors import widget_id_by_key
from openguru.integrations.widget.tokens import HEADER, widget_token_verify


def request_origin(request: HttpRequest) -> str:
    """The page's origin: the Origin header, else the Referer's scheme and host (a browser
    leaves Origin out of some requests)."""
    origin = str(request.headers.get("Origin") or "").strip()
    if origin and origin != "null":
        return origin
    referer = urlsplit(str(request.headers.get("Referer") or ""))
    return f"{referer.scheme}://{referer.netloc}" if referer.scheme and referer.netloc else ""


def widget_from_request(request: HttpRequest) -> WidgetId:
    """Blocking: the widget id in the Authorization header, if the page's origin may use it;
    else a 401."""
    key = str(request.headers.get("Authorization") or "").strip()
    if not key:
        raise DomainError(ErrorCode.NOT_AUTHENTICATED, "Send the widget id in Authorization.")
    widget = widget_id_by_key(key=key)
    if widget is None:
        raise DomainError(ErrorCode.NOT_AUTHENTICATED, "This widget id is not valid.")
    if not origin_allowed(pattern=widget.domain_pattern, origin=request_origin(request)):
        raise DomainError(
            ErrorCode.NOT_AUTHENTICATED, "This widget id may not be used on this site."
        )
    if not guru_is_public(widget.guru):
        token = str(request.headers.get(HEADER) or "").strip()
        widget_token_verify(secret=secret_decrypt(widget.secret), token=token)
    return widget


class WidgetIdAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[None, WidgetId]:
        return None, widget_from_request(request)

    def authenticate_header(self, request: Request) -> str:
        return "Widget-Id"


class HasWidgetId(BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        return isinstance(request.auth, WidgetId)


class WidgetApi(APIView):
    """A widget endpoint: the guru is the widget id's."""

    authentication_classes = [WidgetIdAuthentication]
    permission_classes = [HasWidgetId]

    @property
    def widget(self) -> WidgetId:
        auth = self.request.auth
        assert isinstance(auth, WidgetId)
        return auth

    def permission_denied(
        self, request: Request, message: Any = None, code: Any = None
    ) -> NoReturn:
        raise DomainError(ErrorCode.NOT_AUTHENTICATED, "Send the widget id in Authorization.")
