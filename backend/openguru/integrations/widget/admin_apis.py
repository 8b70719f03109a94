"""The admins' widget ids of a guru: create (with the domains that may embed it), list, delete."""

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.openapi import always_present, errors
from openguru.gurus.selectors import guru_get
from openguru.integrations.models import WidgetId
from openguru.integrations.widget.selectors import widget_id_list
from openguru.integrations.widget.services import (
    widget_id_create,
    widget_id_delete,
    widget_secret_rotate,
)


class WidgetIdOutput(serializers.ModelSerializer):
    key = serializers.CharField(help_text="Put it in the page: the widget's data-widget-id.")
    secret_set = serializers.SerializerMethodField(
        help_text="Whether it has a secret for signing identity tokens (never returned again)."
    )

    class Meta:
        model = WidgetId
        fields = ["id", "key", "domain_pattern", "secret_set", "created_at"]
        extra_kwargs = always_present(fields)

    def get_secret_set(self, widget: WidgetId) -> bool:
        return bool(widget.secret)


_WIDGET_ID = {
    "id": 7,
    "key": "Jx3v0m8kq2cR1xZt6fYb9wLpQe4sHn5u",
    "domain_pattern": "*.example.com",
    "secret_set": False,
    "created_at": "2025-01-01T12:00:00Z",
}


class WidgetIdListApi(APIView):
    """A guru's widget ids (admins): each lets pages on its domains embed the widget."""

    class InputSerializer(serializers.Serializer):
        domain_pattern = serializers.CharField(
            max_length=300,
            allow_blank=True,
            help_text='"https://docs.example.com" (that scheme, host and port), '
            '"docs.example.com", "*.example.com" (sub-domains), "http://localhost:*" (any '
            'port), or "*" for any site.',
        )

    @extend_schema(
        operation_id="widget_id_list",
        tags=["widget ids"],
        summary="A guru's widget ids",
        responses={200: WidgetIdOutput(many=True), **errors(401, 403, 404)},
        examples=[OpenApiExample("ids", value=[_WIDGET_ID], response_only=True)],
    )
    def get(self, request: Request, slug: str) -> Response:
        widgets = widget_id_list(guru=guru_get(slug=slug))
        return Response(WidgetIdOutput(widgets, many=True).data)

    @extend_schema(
        operation_id="widget_id_create",
        tags=["widget ids"],
        summary="Create a widget id for a guru",
        request=InputSerializer,
        responses={201: WidgetIdOutput, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "docs site", value={"domain_pattern": "*.example.com"}, request_only=True
            ),
            OpenApiExample("created", value=_WIDGET_ID, response_only=True, status_codes=["201"]),
        ],
    )
    def post(self, request: Request, slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        widget = widget_id_create(
            guru=guru_get(slug=slug), domain_pattern=data.validated_data["domain_pattern"]
        )
        return Response(WidgetIdOutput(widget).data, status=status.HTTP_201_CREATED)


class WidgetIdDetailApi(APIView):
    @extend_schema(
        operation_id="widget_id_delete",
        tags=["widget ids"],
        summary="Delete a widget id (its pages get 401 from then on)",
        responses={204: None, **errors(401, 403, 404)},
    )
    def delete(self, request: Request, slug: str, widget_id: int) -> Response:
        widget_id_delete(guru=guru_get(slug=slug), widget_id=widget_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WidgetSecretApi(APIView):
    class OutputSerializer(serializers.Serializer):
        secret = serializers.CharField(
            help_text="Signs a private guru's widget tokens on your server. Shown once."
        )

    @extend_schema(
        operation_id="widget_id_secret_rotate",
        tags=["widget ids"],
        summary="Make a new signing secret for a widget id (shown once; the old one stops)",
        description="A private guru's widget answers only with an identity token signed with "
        'this secret: HMAC-SHA256 of "<user id>:<expires>", sent as '
        '"<expires>.<hex signature>.<user id>" (at most an hour ahead).',
        request=None,
        responses={200: OutputSerializer, **errors(401, 403, 404)},
        examples=[
            OpenApiExample("secret", value={"secret": "ogws_5q2…the rest…"}, response_only=True)
        ],
    )
    def post(self, request: Request, slug: str, widget_id: int) -> Response:
        _, secret = widget_secret_rotate(guru=guru_get(slug=slug), widget_id=widget_id)
        return Response({"secret": secret})
