"""The embeddable widget's JSON endpoints (Gurubase's widget protocol): the guru's look and
example questions, follow-up sessions, suggested next questions and votes. Each takes the
widget id in `Authorization` from a page its domain pattern allows; the guru is the widget's.
The answer stream is `widget_ask`."""

from uuid import UUID

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from openguru.answers.models import Binge, Question, Vote
from openguru.answers.selectors import binge_of_asker, question_get
from openguru.answers.services import binge_create, vote_record
from openguru.answers.site.follow_ups import question_follow_ups
from openguru.core.client_address import client_fingerprint, client_ip
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.openapi import errors
from openguru.gurus.default_icon import guru_icon_url
from openguru.gurus.models import Guru
from openguru.integrations.widget.auth import WidgetApi
from openguru.integrations.widget.selectors import widget_example_questions
from openguru.providers.llm.factory import get_llm
from openguru.sources.versions import guru_versions_offered

TAGS = ["widget"]
_SLUG = "how-do-i-create-a-virtual-environment"
_BINGE = "0b7e1f7c-5d3a-4a8e-9a8e-2f0c1d2e3f40"


def _guru_named(widget_guru: Guru, guru_slug: str) -> Guru:
    """The path names the guru too (Gurubase's form): it must be the widget id's."""
    if guru_slug != widget_guru.slug:
        raise DomainError(ErrorCode.GURU_NOT_FOUND, f"This widget has no guru named '{guru_slug}'.")
    return widget_guru


def _question(guru: Guru, slug: str, binge_id: UUID | None) -> Question:
    """An answer the widget shows: in its follow-up session, or outside any."""
    binge: Binge | None = (
        binge_of_asker(guru=guru, binge_id=binge_id, owner=None) if binge_id else None
    )
    if binge is not None and binge.root_question and binge.root_question.slug == slug:
        return binge.root_question
    return question_get(guru=guru, slug=slug, binge=binge)


class WidgetGuruApi(WidgetApi):
    class OutputSerializer(serializers.Serializer):
        class ColorsSerializer(serializers.Serializer):
            base_color = serializers.CharField()

        colors = ColorsSerializer()
        icon_url = serializers.CharField(
            help_text="The guru's icon; without one, its default icon (initial and colour, SVG)."
        )
        name = serializers.CharField()
        slug = serializers.SlugField()
        example_questions = serializers.ListField(child=serializers.CharField())
        versions = serializers.ListField(
            child=serializers.CharField(),
            help_text="Documentation versions, newest first: more than one offers a selector.",
        )
        default_version = serializers.CharField(help_text='"": the guru has no versions.')

    @extend_schema(
        operation_id="widget_guru",
        tags=TAGS,
        summary="The widget's guru: name, colour, icon and example questions",
        responses={200: OutputSerializer, **errors(401)},
        examples=[
            OpenApiExample(
                "guru",
                value={
                    "colors": {"base_color": "#1f6feb"},
                    "icon_url": "https://openguru.example.com/api/gurus/python/icon.svg?v=1a2b3c4d",
                    "name": "Python",
                    "slug": "python",
                    "example_questions": ["How do I create a virtual environment?"],
                    "versions": [],
                    "default_version": "",
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        guru = self.widget.guru
        return Response(
            {
                "colors": {"base_color": guru.base_color},
                "icon_url": guru_icon_url(guru=guru, request=request),
                "name": guru.name,
                "slug": guru.slug,
                "example_questions": widget_example_questions(guru=guru),
                **guru_versions_offered(guru=guru),
            }
        )


class WidgetBingeApi(WidgetApi):
    class InputSerializer(serializers.Serializer):
        root_slug = serializers.SlugField(max_length=200)
        question = serializers.CharField(required=False, allow_blank=True, max_length=2000)

    class OutputSerializer(serializers.Serializer):
        id = serializers.UUIDField(help_text="Send it as `binge_id` with the follow-ups.")
        root_slug = serializers.SlugField()

    @extend_schema(
        operation_id="widget_binge_create",
        tags=TAGS,
        summary="Start a follow-up session on an answered question",
        request=InputSerializer,
        responses={200: OutputSerializer, **errors(400, 401, 404)},
        examples=[
            OpenApiExample("session", value={"root_slug": _SLUG}, request_only=True),
            OpenApiExample("created", value={"id": _BINGE, "root_slug": _SLUG}, response_only=True),
        ],
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        guru = self.widget.guru
        root = question_get(guru=guru, slug=data.validated_data["root_slug"])
        binge = binge_create(guru=guru, root_question=root)
        return Response({"id": str(binge.pk), "root_slug": root.slug})


class FollowUpExamplesApi(WidgetApi):
    class InputSerializer(serializers.Serializer):
        question_slug = serializers.SlugField(max_length=200)
        binge_id = serializers.UUIDField(required=False, allow_null=True)
        question_text = serializers.CharField(required=False, allow_blank=True, max_length=2000)
        widget = serializers.BooleanField(required=False, default=True)

    @extend_schema(
        operation_id="widget_follow_up_examples",
        tags=TAGS,
        summary="Questions a reader of this answer might ask next",
        description="Made once per answer by the language model and kept; an empty list "
        "without one.",
        request=InputSerializer,
        responses={
            200: OpenApiResponse({"type": "array", "items": {"type": "string"}}),
            **errors(400, 401, 404),
        },
        examples=[
            OpenApiExample(
                "answer", value={"question_slug": _SLUG, "binge_id": None}, request_only=True
            ),
            OpenApiExample(
                "suggestions",
                value=["How do I activate it?", "How do I delete a virtual environment?"],
                response_only=True,
            ),
        ],
    )
    def post(self, request: Request, guru_slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        guru = _guru_named(self.widget.guru, guru_slug)
        question = _question(
            guru, data.validated_data["question_slug"], data.validated_data.get("binge_id")
        )
        return Response(question_follow_ups(question=question, llm=get_llm()))


class RecordVoteApi(WidgetApi):
    class InputSerializer(serializers.Serializer):
        content_slug = serializers.SlugField(max_length=200, help_text="The answer's slug.")
        binge_id = serializers.UUIDField(required=False, allow_null=True)
        vote_type = serializers.ChoiceField(choices=Vote.Type.values)
        feedback = serializers.CharField(required=False, allow_blank=True, max_length=2000)

    class OutputSerializer(serializers.Serializer):
        msg = serializers.CharField()

    @extend_schema(
        operation_id="widget_record_vote",
        tags=TAGS,
        summary="Vote an answer up or down (voting again replaces the vote)",
        request=InputSerializer,
        responses={200: OutputSerializer, **errors(400, 401, 404)},
        examples=[
            OpenApiExample(
                "down",
                value={"content_slug": _SLUG, "vote_type": "downvote", "feedback": "Too short."},
                request_only=True,
            ),
            OpenApiExample("recorded", value={"msg": "Vote recorded."}, response_only=True),
        ],
    )
    def post(self, request: Request, guru_slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        guru = _guru_named(self.widget.guru, guru_slug)
        values = data.validated_data
        vote_record(
            question=_question(guru, values["content_slug"], values.get("binge_id")),
            voter=client_fingerprint(client_ip(request)),
            vote_type=values["vote_type"],
            feedback=values.get("feedback", ""),
        )
        return Response({"msg": "Vote recorded."})
