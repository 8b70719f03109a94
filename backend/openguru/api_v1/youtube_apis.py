"""Gurubase's v1 YouTube listings: the videos of a playlist or a channel, as YouTube lists them
now. Nothing is added: a client passes the playlist or channel URL (one source that follows it)
or the video links (one source each) to the data-sources endpoint."""

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from openguru.api_v1.access import require_staff
from openguru.api_v1.apis import V1Api
from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.core.openapi import errors
from openguru.sources.loaders.youtube_listing import CollectionKind, Listing
from openguru.sources.selectors import youtube_collection_videos


class YouTubeUrlInput(serializers.Serializer):
    url = serializers.CharField(max_length=2000)


class YouTubeVideoOutput(serializers.Serializer):
    video_id = serializers.CharField()
    title = serializers.CharField(allow_blank=True)
    link = serializers.CharField()


class YouTubePlaylistOutput(serializers.Serializer):
    playlist_id = serializers.CharField()
    video_count = serializers.IntegerField()
    videos = YouTubeVideoOutput(many=True)


class YouTubeChannelOutput(serializers.Serializer):
    channel_id = serializers.CharField()
    video_count = serializers.IntegerField()
    videos = YouTubeVideoOutput(many=True)


_VIDEO = {
    "video_id": "rfscVS0vtbw",
    "title": "Learn Python - Full Course for Beginners",
    "link": "https://www.youtube.com/watch?v=rfscVS0vtbw",
}
_DESCRIPTION = (
    "Lists the videos (deleted and private ones left out; at most YOUTUBE_LIST_MAX_VIDEOS) "
    "through the YouTube Data API with the server's YOUTUBE_API_KEY. Needs a staff user's key."
)
_ERRORS = errors(400, 401, 403, 404, 429, 503)


def _listing(request: Request, *, kind: CollectionKind) -> tuple[Listing, list[dict[str, str]]]:
    data = YouTubeUrlInput(data=request.data)
    data.is_valid(raise_exception=True)
    try:
        listing = youtube_collection_videos(url=data.validated_data["url"], kind=kind)
    except TransientError as exc:  # YouTube busy or failing: the caller may try again later
        raise DomainError(ErrorCode.PROVIDER_UNAVAILABLE, exc.msg) from exc
    videos = [
        {
            "video_id": video.video_id,
            "title": video.title,
            "link": f"https://www.youtube.com/watch?v={video.video_id}",
        }
        for video in listing.videos
    ]
    return listing, videos


class YouTubePlaylistApi(V1Api):
    @extend_schema(
        operation_id="v1_youtube_playlist",
        tags=["v1 data sources"],
        summary="The videos of a YouTube playlist",
        description=_DESCRIPTION,
        request=YouTubeUrlInput,
        responses={200: YouTubePlaylistOutput, **_ERRORS},
        examples=[
            OpenApiExample(
                "playlist",
                value={
                    "url": "https://www.youtube.com/playlist?list=PLWKjhJtqVAbnqBxcdjVGgT3uVR10bzTEB"
                },
                request_only=True,
            ),
            OpenApiExample(
                "videos",
                value={
                    "playlist_id": "PLWKjhJtqVAbnqBxcdjVGgT3uVR10bzTEB",
                    "video_count": 1,
                    "videos": [_VIDEO],
                },
                response_only=True,
            ),
        ],
    )
    def post(self, request: Request, guru_slug: str) -> Response:
        require_staff(self.caller)
        listing, videos = _listing(request, kind="playlist")
        return Response(
            {"playlist_id": listing.collection_id, "video_count": len(videos), "videos": videos}
        )


class YouTubeChannelApi(V1Api):
    @extend_schema(
        operation_id="v1_youtube_channel",
        tags=["v1 data sources"],
        summary="The videos of a YouTube channel (its uploads)",
        description=_DESCRIPTION,
        request=YouTubeUrlInput,
        responses={200: YouTubeChannelOutput, **_ERRORS},
        examples=[
            OpenApiExample(
                "channel", value={"url": "https://www.youtube.com/@freecodecamp"}, request_only=True
            ),
            OpenApiExample(
                "videos",
                value={
                    "channel_id": "UC8butISFwT-Wl7EV0hUK0BQ",
                    "video_count": 1,
                    "videos": [_VIDEO],
                },
                response_only=True,
            ),
        ],
    )
    def post(self, request: Request, guru_slug: str) -> Response:
        require_staff(self.caller)
        listing, videos = _listing(request, kind="channel")
        return Response(
            {"channel_id": listing.collection_id, "video_count": len(videos), "videos": videos}
        )
