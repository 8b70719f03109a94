"""Celery: broker, queues, limits, beat schedule."""

from celery.schedules import crontab

from config.env import DATA_DIR, env

# Unset: kombu's filesystem transport, which needs no server (embedded default for a bare laptop).
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
if CELERY_BROKER_URL.startswith("filesystem://"):
    _queue_dir = DATA_DIR / "broker"
    # The transport expects its folders to exist; every process that reads settings may be first.
    for _folder in ("queue", "processed", "control"):
        (_queue_dir / _folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_dir / "queue"),
        "data_folder_out": str(_queue_dir / "queue"),
        "processed_folder": str(_queue_dir / "processed"),
        # Fanout (broadcast) messages; kombu's default is a "control" folder in the cwd.
        "control_folder": str(_queue_dir / "control"),
        "store_processed": False,
    }
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
# A task that dies with its worker (SIGKILL, OOM) goes back on the queue instead of being lost.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=3600)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=3900)
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # Redis hands an unacknowledged (acks_late) message to another worker after this long: it
    # must outlast the longest task, or a long ingestion would be started a second time.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_TASK_TIME_LIMIT + 600}
CELERY_TASK_DEFAULT_QUEUE = "light"
# Website crawls and crawl discovery go to the "ingest" queue; every other source, the summaries
# and beat's bookkeeping to "light", each queue with a worker of its own (config/workers.py), so
# a small source never waits behind a long crawl (openguru/sources/routing.py says why).
CELERY_TASK_ROUTES = ("openguru.sources.routing.route_source_task",)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")

WEBSITE_RECRAWL_HOURS = env.int("WEBSITE_RECRAWL_HOURS", default=24)
GITHUB_RESYNC_HOURS = env.int("GITHUB_RESYNC_HOURS", default=12)
# YouTube playlists and channels: listed again to pick up new videos and drop removed ones.
YOUTUBE_RESYNC_HOURS = env.int("YOUTUBE_RESYNC_HOURS", default=24)
# Zendesk help centers: listed again to pick up edited, new and removed articles.
ZENDESK_RESYNC_HOURS = env.int("ZENDESK_RESYNC_HOURS", default=12)
STUCK_PROCESSING_MINUTES = env.int("STUCK_PROCESSING_MINUTES", default=30)
# A source queued behind another source of its guru checks again this often, this many times
# (then it stays queued and beat sends it again later).
SOURCE_BUSY_RETRY_SECONDS = env.int("SOURCE_BUSY_RETRY_SECONDS", default=15)
SOURCE_BUSY_MAX_WAITS = env.int("SOURCE_BUSY_MAX_WAITS", default=240)
# Beat resends a queued source nothing touched for this long: its message was lost (the broker
# was down when it was added) or it gave up waiting behind its guru.
SOURCE_PENDING_QUIET_MINUTES = env.float("SOURCE_PENDING_QUIET_MINUTES", default=10)
# A running source's claim is refreshed this often by a thread of its run, whatever the run is
# doing; a claim whose heartbeat is four beats late belongs to a run that died, and only then
# may a redelivery of the same message take it back (never while the run is alive).
SOURCE_HEARTBEAT_SECONDS = env.float("SOURCE_HEARTBEAT_SECONDS", default=15)
# Runs of one source that ended without finishing (worker killed, out of memory, hard time
# limit) before the source is marked FAILED instead of being retried forever.
SOURCE_MAX_CRASHED_RUNS = env.int("SOURCE_MAX_CRASHED_RUNS", default=3)
# Beat sends a summary again for an indexed source that still has none (its message was lost)
# once nothing touched it for N minutes (longer than a summary may take, 16 minutes, so one
# being written is not sent twice), and only for M hours after it was indexed.
SOURCE_SUMMARY_QUIET_MINUTES = env.float("SOURCE_SUMMARY_QUIET_MINUTES", default=30)
SOURCE_SUMMARY_RETRY_HOURS = env.float("SOURCE_SUMMARY_RETRY_HOURS", default=6)

CELERY_BEAT_SCHEDULE = {
    "pick-up-new-sources": {
        "task": "openguru.sources.tasks.sources_enqueue_pending",
        "schedule": 60.0,
    },
    "requeue-stuck-sources": {
        "task": "openguru.sources.tasks.sources_requeue_stuck",
        "schedule": 300.0,
    },
    "send-unsent-slack-events": {
        "task": "openguru.integrations.tasks.slack_events_send_unsent",
        "schedule": 60.0,
    },
    "send-unsent-github-deliveries": {
        "task": "openguru.integrations.tasks.github_deliveries_send_unsent",
        "schedule": 60.0,
    },
    "send-unsent-teams-activities": {
        "task": "openguru.integrations.tasks.teams_activities_send_unsent",
        "schedule": 60.0,
    },
    "summarize-unsummarized-sources": {
        "task": "openguru.sources.tasks.sources_enqueue_missing_summaries",
        "schedule": 900.0,
    },
    "prune-audit-events": {
        "task": "openguru.core.audit.tasks.audit_events_prune",
        "schedule": crontab(hour=3, minute=17),
    },
    "prune-answer-traces": {
        "task": "openguru.answers.tasks.traces_prune_task",
        "schedule": crontab(hour=3, minute=37),
    },
    "resync-sources": {
        "task": "openguru.sources.tasks.sources_enqueue_due_resyncs",
        "schedule": crontab(minute=7),
    },
}
