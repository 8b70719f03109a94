"""Public ask endpoints (SSE stream and plain JSON) and question reads.

The ask views are plain async Django views: DRF views are sync, and a sync view would buffer the
stream under ASGI. They read the body, take the one ask path (`answers/channels/`) and hand the
events to their channel's encoder; errors are in the same `{"code", "msg"}` shape as DRF views.
"""

import time
from typing import Any
from uuid import UUID

from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.accounts.access import guru_is_public
from openguru.accounts.viewer import request_viewer
from openguru.answers.channels.access import Asker
from openguru.answers.channels.prepare import (
    MAX_QUESTION_CHARS,
    Ask,
    Prepared,
    ask_prepare,
    version_field,
)
from openguru.answers.channels.rules import Channel
from openguru.answers.channels.site_json import json_response
from openguru.answers.channels.sse import sse_response
from openguru.answers.engine.groundwork import ANSWER_MODES
from openguru.answers.engine.providers import providers_for
from openguru.answers.models import Binge, Question
from openguru.answers.selectors import question_get
from openguru.answers.site.apis import (
    BINGE_PARAMETER,
    QUESTION_ERRORS,
    question_from_request,
    site_guru,
    unindexed,
)
from openguru.answers.site.selectors import question_page_extras
from openguru.core.asgi import skips_site_middleware
from openguru.core.client_address import client_ip
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.exception_handler import json_error
from openguru.core.json_body import parse_json_body
from openguru.core.openapi import always_present, errors
from openguru.core.openapi_stand_ins import documented_by
from openguru.core.threads import run_blocking


class AskInput(serializers.Serializer):
    question = serializers.CharField(max_length=MAX_QUESTION_CHARS)
    binge_id = serializers.UUIDField(required=False, allow_null=True)
    parent_slug = serializers.SlugField(required=False, allow_blank=True, max_length=200)
    mode = serializers.ChoiceField(choices=ANSWER_MODES, required=False)
    version = version_field()


def _prepare(request: HttpRequest, slug: str, received_at: float) -> Prepared:
    """Blocking: the body, then the one ask path's limits, guru and session."""
    data: dict[str, Any] = parse_json_body(request, AskInput)
    return ask_prepare(
        channel=Channel.SITE,
        asker=Asker(ip=client_ip(request), reader=request_viewer(request)),
        guru_slug=slug,
        ask=Ask(
            question=data["question"],
            binge_id=data.get("binge_id"),
            parent_slug=data.get("parent_slug") or "",
            mode=data.get("mode", ""),
            version=data.get("version") or "",
        ),
        providers_for=providers_for,
        received_at=received_at,
    )


@documented_by("openguru.answers.openapi.ANSWER_STREAM")
@skips_site_middleware
@csrf_exempt
@require_POST
async def answer_stream(request: HttpRequest, slug: str) -> StreamingHttpResponse | JsonResponse:
    """POST {"question"} -> text/event-stream: meta, delta..., done | error."""
    try:
        prepared = await run_blocking(_prepare, request, slug, time.perf_counter())
    except DomainError as exc:
        return json_error(exc)
    return await sse_response(prepared.events())


@documented_by("openguru.answers.openapi.ANSWER_JSON")
@skips_site_middleware
@csrf_exempt
@require_POST
async def answer_json(request: HttpRequest, slug: str) -> JsonResponse:
    """POST {"question"} -> the whole answer as one JSON object (for scripts and bots)."""
    try:
        prepared = await run_blocking(_prepare, request, slug, time.perf_counter())
    except DomainError as exc:
        return json_error(exc)
    return await json_response(prepared.events())


class ReferenceSerializer(serializers.Serializer):
    title = serializers.CharField()
    link = serializers.CharField(help_text="Empty for private or pasted sources.")
    icon = serializers.CharField(help_text="The source's kind: web, pdf, youtube, github, text.")


@extend_schema_field(ReferenceSerializer(many=True))
class ReferencesField(serializers.JSONField):
    """The sources an answer cites (stored as JSON)."""


REFERENCE_EXAMPLE = {
    "title": "Virtual environments",
    "link": "https://docs.python.org/3/library/venv.html",
    "icon": "web",
}
GROUNDING_EXAMPLE = {
    "status": "checked",
    "reason": "",
    "claims": [
        {
            "text": "Create one with python -m venv myenv.",
            "verdict": "supported",
            "context_ids": [1],
        }
    ],
    "unsupported": 0,
    "partly": 0,
    "contexts": [{"id": 1, "title": "Virtual environments", "link": REFERENCE_EXAMPLE["link"]}],
    "model": "gpt-4o-mini",
    "content_digest": "3f1c9a0b2d4e5f60",
    "trust_before": 0.82,
}
QUESTION_EXAMPLE = {
    "slug": "how-do-i-create-a-virtual-environment",
    "question": "How do I create a virtual environment?",
    "user_question": "how do i create a venv",
    "content": "Create one with `python -m venv myenv` [1].",
    "description": "Creating a Python virtual environment with venv.",
    "references": [REFERENCE_EXAMPLE],
    "trust_score": 0.82,
    "extractive": False,
    "grounding": GROUNDING_EXAMPLE,
    "binge_id": None,
    "parent_slug": None,
    "version": "",
    "created_at": "2025-01-01T12:00:00Z",
    "updated_at": "2025-01-01T12:00:00Z",
}


class GroundingClaimOutput(serializers.Serializer):
    text = serializers.CharField()
    verdict = serializers.ChoiceField(choices=["supported", "partly", "unsupported", "unchecked"])
    context_ids = serializers.ListField(
        child=serializers.IntegerField(), help_text="The contexts backing it, numbered from 1."
    )


class GroundingContextOutput(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    link = serializers.CharField()


class GroundingOutput(serializers.Serializer):
    """`answers/quality/grounding.py` writes it; documented here, read back as stored."""

    status = serializers.ChoiceField(choices=["checked", "unchecked", "skipped"])
    reason = serializers.CharField(help_text='Why it is unchecked or skipped; "" when checked.')
    claims = GroundingClaimOutput(many=True)
    unsupported = serializers.IntegerField()
    partly = serializers.IntegerField()
    contexts = GroundingContextOutput(many=True)
    model = serializers.CharField(help_text='The LLM that checked it; "" when skipped.')
    content_digest = serializers.CharField(help_text="Which answer text it belongs to.")
    trust_before = serializers.FloatField(
        help_text="The trust score before unsupported claims lowered it."
    )


# Stored as JSON (shaped by the check, not by this serializer): documented, passed through.
@extend_schema_field(GroundingOutput)
class GroundingField(serializers.DictField):
    """An answer's grounding check, or null."""


class QuestionOutput(serializers.ModelSerializer):
    references = ReferencesField()
    grounding = GroundingField(
        allow_null=True,
        help_text="The answer's claims checked against its sources after it was saved. Null "
        "until checked, or when answers are made without an LLM.",
    )
    binge_id = serializers.UUIDField(allow_null=True)
    parent_slug = serializers.SlugField(
        source="parent.slug", allow_null=True, default=None, read_only=True
    )
    version = serializers.CharField(
        read_only=True,
        help_text='The documentation version it was answered from ("": the guru has none).',
    )

    class Meta:
        model = Question
        fields = [
            "slug", "question", "user_question", "content", "description", "references",
            "trust_score", "extractive", "grounding", "binge_id", "parent_slug", "version",
            "created_at", "updated_at",
        ]  # fmt: skip
        extra_kwargs = always_present(fields)


class QuestionChildOutput(serializers.Serializer):
    slug = serializers.SlugField()
    question = serializers.CharField()


class QuestionDetailOutput(QuestionOutput):
    """An answer's page: the answer, whether its sources changed since, its votes, and the
    questions asked on top of it (in follow-up sessions or not)."""

    upvotes = serializers.IntegerField()
    downvotes = serializers.IntegerField()
    children = QuestionChildOutput(many=True)
    indexable = serializers.BooleanField(
        help_text="False for a private guru's answer: its page carries noindex."
    )

    class Meta(QuestionOutput.Meta):
        fields = [
            *QuestionOutput.Meta.fields,
            *["stale", "upvotes", "downvotes", "children", "indexable"],
        ]
        extra_kwargs = always_present(fields)


class QuestionDetailApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []

    @extend_schema(
        operation_id="question_get",
        tags=["answers"],
        summary="A saved answer",
        auth=[],
        parameters=[BINGE_PARAMETER],
        responses={200: QuestionDetailOutput, **QUESTION_ERRORS},
        examples=[
            OpenApiExample(
                "answer",
                value={
                    **QUESTION_EXAMPLE,
                    "stale": False,
                    "upvotes": 3,
                    "downvotes": 1,
                    "children": [
                        {"slug": "how-do-i-activate-it", "question": "How do I activate it?"}
                    ],
                    "indexable": True,
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request, slug: str, question_slug: str) -> Response:
        question = question_from_request(request, slug, question_slug)
        extras = question_page_extras(question=question)
        indexable = guru_is_public(question.guru)
        body = {**QuestionOutput(question).data, **extras, "indexable": indexable}
        return unindexed(Response(body), question.guru)


class BingeCreateApi(APIView):
    """Start a follow-up session on top of an answered question."""

    permission_classes = [AllowAny]
    authentication_classes = []  # a site view: credentials sent anyway are not read

    class InputSerializer(serializers.Serializer):
        root_slug = serializers.SlugField(max_length=200)

    class OutputSerializer(serializers.Serializer):
        binge_id = serializers.UUIDField()
        root_slug = serializers.SlugField()

    @extend_schema(
        operation_id="binge_create",
        tags=["answers"],
        summary="Start a follow-up session",
        auth=[],
        request=InputSerializer,
        responses={201: OutputSerializer, **errors(400, 404)},
        examples=[
            OpenApiExample(
                "session",
                value={"root_slug": "how-do-i-create-a-virtual-environment"},
                request_only=True,
            ),
            OpenApiExample(
                "created",
                value={
                    "binge_id": "0b7e1f7c-5d3a-4a8e-9a8e-2f0c1d2e3f40",
                    "root_slug": "how-do-i-create-a-virtual-environment",
                },
                response_only=True,
                status_codes=["201"],
            ),
        ],
    )
    def post(self, request: Request, slug: str) -> Response:
        from openguru.answers.services import binge_create

        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        guru = site_guru(request, slug)
        root = question_get(guru=guru, slug=data.validated_data["root_slug"])
        binge = binge_create(guru=guru, root_question=root)
        return Response({"binge_id": str(binge.pk), "root_slug": root.slug}, status=201)


class BingeDetailApi(APIView):
    """The binge's questions as a tree (each with its parent) for the UI to draw."""

    permission_classes = [AllowAny]
    authentication_classes = []  # a site view: credentials sent anyway are not read

    class OutputSerializer(serializers.Serializer):
        binge_id = serializers.UUIDField()
        root = QuestionOutput(allow_null=True)
        questions = QuestionOutput(many=True)

    @extend_schema(
        operation_id="binge_get",
        tags=["answers"],
        summary="A follow-up session's questions",
        auth=[],
        responses={200: OutputSerializer, **errors(404)},
        examples=[
            OpenApiExample(
                "session",
                value={
                    "binge_id": "0b7e1f7c-5d3a-4a8e-9a8e-2f0c1d2e3f40",
                    "root": QUESTION_EXAMPLE,
                    "questions": [],
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request, slug: str, binge_id: UUID) -> Response:
        guru = site_guru(request, slug)
        binge = Binge.objects.filter(pk=binge_id, guru=guru).first()
        if binge is None:
            raise DomainError(ErrorCode.NOT_FOUND, "No such follow-up session.")
        questions = Question.objects.filter(binge=binge).select_related("parent")
        return Response(
            {
                "binge_id": str(binge.pk),
                "root": QuestionOutput(binge.root_question).data if binge.root_question else None,
                "questions": QuestionOutput(questions.order_by("created_at"), many=True).data,
            }
        )
