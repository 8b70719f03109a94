"""The HTTP response of a stream, for every channel that streams."""

from collections.abc import AsyncIterator

from django.http import StreamingHttpResponse

EVENT_STREAM = "text/event-stream; charset=utf-8"


def stream_response(
    body: AsyncIterator[bytes], *, content_type: str = EVENT_STREAM
) -> StreamingHttpResponse:
    response = StreamingHttpResponse(body, content_type=content_type)
    response["Cache-Control"] = "no-cache, no-transform"  # no proxy may buffer it to compress
    response["X-Accel-Buffering"] = "no"  # nginx: pass bytes through as they come
    return response
