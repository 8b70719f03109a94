from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.ops.health import health_report, is_healthy


class HealthApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    class OutputSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=["ok", "degraded"])
        components = serializers.DictField(
            child=serializers.CharField(),
            help_text='Each component: "ok", "not configured" or "error: <reason>".',
        )

    @extend_schema(
        operation_id="health",
        tags=["health"],
        summary="Health of every component",
        responses={
            200: OutputSerializer,
            503: OpenApiResponse(OutputSerializer, description="A component is failing."),
        },
        examples=[
            OpenApiExample(
                "healthy",
                value={
                    "status": "ok",
                    "components": {
                        "database": "ok",
                        "broker": "ok",
                        "vector_store": "ok",
                        "embedder": "ok",
                        "llm": "not configured",
                        "reranker": "not configured",
                    },
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        report = health_report()
        healthy = is_healthy(report)
        return Response(
            {"status": "ok" if healthy else "degraded", "components": report},
            status=200 if healthy else 503,
        )
