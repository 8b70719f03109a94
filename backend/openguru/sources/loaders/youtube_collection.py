"""A playlist or channel as one source: each listed video's transcript becomes documents of
that source, linked `watch?v=ID&t=Ns` as a single video's are. A re-sync lists the videos
again and reads only the new ones: a video indexed before is reported unchanged (its chunks
stay), and a video no longer listed leaves no document, so the indexer deletes its chunks."""

import logging
from collections.abc import Iterator, Mapping
from typing import Any

from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.sources.loaders.base import (
    Document,
    LoadProgress,
    LoadRequest,
    LoadResult,
    ProgressCallback,
    ProgressReporter,
)
from openguru.sources.loaders.youtube import (
    WatchPageRecorder,
    YouTubeLoader,
    fetch_snippets,
    group_snippets,
    transcript_session,
    watch_link,
)
from openguru.sources.loaders.youtube_listing import (
    Collection,
    ListedVideo,
    collection_list,
    parse_collection_url,
)

logger = logging.getLogger(__name__)


class YouTubeSourceLoader:
    """A YouTube source: a playlist or channel URL lists its videos, any other is one video."""

    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        if collection := parse_collection_url(request.url):
            return load_collection(request, collection, on_progress=on_progress)
        return YouTubeLoader().load(request, on_progress=on_progress)


def video_page(video_id: str) -> str:
    """The key of a video in the source's fetch state: the unit that is new, kept or gone."""
    return f"https://www.youtube.com/watch?v={video_id}"


def load_collection(
    request: LoadRequest, collection: Collection, *, on_progress: ProgressCallback
) -> LoadResult:
    # Listing first and whole: a playlist that is gone fails the run before anything changes.
    listing = collection_list(collection)
    indexed = _indexed_videos(request.fetch_state)
    unchanged = {video_page(v.video_id) for v in listing.videos if v.video_id in indexed}
    progress = LoadProgress(discovered=len(listing.videos), skipped_unchanged=len(unchanged))
    reporter = ProgressReporter(progress, on_progress)
    result = LoadResult(documents=iter(()), unchanged_links=unchanged)
    for link in unchanged:
        result.fetch_state[link] = {"video_id": request.fetch_state[link]["video_id"]}
    new = [video for video in listing.videos if video.video_id not in indexed]
    result.documents = _documents(new, request, result, progress, reporter)
    return result


def _indexed_videos(fetch_state: Mapping[str, Mapping[str, Any]]) -> set[str]:
    return {str(state["video_id"]) for state in fetch_state.values() if state.get("video_id")}


def _documents(
    videos: list[ListedVideo],
    request: LoadRequest,
    result: LoadResult,
    progress: LoadProgress,
    reporter: ProgressReporter,
) -> Iterator[Document]:
    transient = False
    for video in videos:
        try:
            snippets = fetch_snippets(transcript_session(WatchPageRecorder()), video.video_id)
        except DomainError as exc:  # a TransientError too: the next re-sync tries again
            logger.info("YouTube video %s skipped: %s", video.video_id, exc.msg)
            progress.failed += 1
            reporter.report()
            transient = transient or isinstance(exc, TransientError)
            continue
        page = video_page(video.video_id)
        result.fetch_state[page] = {"video_id": video.video_id}
        progress.fetched += 1
        reporter.report()
        for start, text in group_snippets(snippets):
            yield Document(
                title=video.title or video.video_id,
                link="" if request.private else watch_link(video.video_id, start),
                text=text,
                format="text",
                metadata={"start_s": start, "video_id": video.video_id, "doc_link": page},
            )
    reporter.report(force=True)
    if transient and not progress.fetched and not result.unchanged_links:
        # Nothing to index only because YouTube refused for now: a retry, not a failure.
        raise TransientError(ErrorCode.FETCH_FAILED, "YouTube refused the transcripts; will retry.")
