"""Moving existing gurus onto the configured BM25 analyzer: the service, the command and the API,
on Milvus Lite and PostgreSQL. Gurus are created while MILVUS_BM25_ANALYZER=standard, then the
setting changes to english, as on a deployment that predates the english default."""

import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.utils import timezone
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.ops.guru_maintenance import guru_reanalyze
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource

pytestmark = pytest.mark.django_db(transaction=True)

TEXT = "# Daemons\n\nThe scheduler runs every hour and restarts crashed workers.\n"
MORE = "# Queues\n\nWorkers running late are restarted by the supervisor.\n"


@pytest.fixture
def analyzer(settings) -> Iterator[Callable[[str], None]]:
    """Switch MILVUS_BM25_ANALYZER, as a restart with a changed setting would."""

    def switch(name: str) -> None:
        settings.MILVUS_BM25_ANALYZER = name
        get_vector_store.cache_clear()

    switch("standard")
    yield switch
    get_vector_store.cache_clear()


def _guru_with_text(admin_client, slug: str, content: str = TEXT) -> Guru:
    made = admin_client.post("/api/gurus/", {"slug": slug, "name": slug}, format="json")
    assert made.status_code == 201, made.json()
    created = admin_client.post(
        f"/api/gurus/{slug}/sources/", {"type": "text", "content": content}, format="json"
    )
    assert created.status_code == 201, created.json()
    guru = Guru.objects.get(slug=slug)
    assert DataSource.objects.get(guru=guru).status == "SUCCESS"
    return guru


def _bm25(guru: Guru, text: str) -> list[str]:
    store = get_vector_store()
    return [hit.chunk_hash for hit in store.search_bm25(guru.collection_name, text, limit=5)]


def _processing(guru: Guru, *, minutes_ago: float = 0) -> DataSource:
    claimed_at = timezone.now() - timedelta(minutes=minutes_ago)
    return DataSource.objects.create(
        guru=guru,
        type="text",
        url="text://busy",
        content="busy",
        status=DataSource.Status.PROCESSING,
        claimed_by="another-worker",
        claimed_at=claimed_at,
    )


# --- The service ---------------------------------------------------------------------------------


def test_a_guru_moves_to_the_configured_analyzer_keeping_its_chunks(admin_client, analyzer):
    guru = _guru_with_text(admin_client, "daemons")
    old = guru.collection_name
    source = DataSource.objects.get(guru=guru)
    hashes = get_vector_store().chunk_hashes(old, source_id=source.pk)
    assert _bm25(guru, "running") == []  # standard: no stemming

    analyzer("english")
    assert guru_reanalyze(guru=guru, store=get_vector_store()) is True

    store = get_vector_store()
    guru.refresh_from_db()
    assert guru.collection_name != old
    assert not store.has_collection(old)
    assert store.collection_analyzer(guru.collection_name) == "english"
    assert store.chunk_hashes(guru.collection_name, source_id=source.pk) == hashes
    assert store.count(guru.collection_name) == source.chunk_count > 0
    assert _bm25(guru, "running") == sorted(hashes)


def test_a_guru_on_the_configured_analyzer_is_left_alone(admin_client, analyzer):
    analyzer("english")
    guru = _guru_with_text(admin_client, "daemons")
    collection = guru.collection_name

    assert guru_reanalyze(guru=guru, store=get_vector_store()) is False

    guru.refresh_from_db()
    assert guru.collection_name == collection
    assert get_vector_store().has_collection(collection)


def test_a_guru_without_a_collection_is_left_alone(admin_client, analyzer):
    guru = _guru_with_text(admin_client, "daemons")
    get_vector_store().drop_collection(guru.collection_name)
    analyzer("english")

    assert guru_reanalyze(guru=guru, store=get_vector_store()) is False


def test_a_guru_with_a_source_being_processed_is_refused(admin_client, analyzer):
    guru = _guru_with_text(admin_client, "daemons")
    _processing(guru)
    analyzer("english")

    with pytest.raises(DomainError) as caught:
        guru_reanalyze(guru=guru, store=get_vector_store())

    assert caught.value.code == ErrorCode.CONFLICT
    assert "being processed" in caught.value.msg
    collection = guru.collection_name
    guru.refresh_from_db()
    assert guru.collection_name == collection
    assert get_vector_store().collection_analyzer(collection) == "standard"


def test_an_abandoned_claim_does_not_hold_the_guru(admin_client, analyzer, settings):
    guru = _guru_with_text(admin_client, "daemons")
    _processing(guru, minutes_ago=settings.STUCK_PROCESSING_MINUTES + 1)  # a crashed worker's
    analyzer("english")

    assert guru_reanalyze(guru=guru, store=get_vector_store()) is True


def test_sources_indexed_afterwards_land_in_the_new_collection(admin_client, analyzer):
    guru = _guru_with_text(admin_client, "daemons")
    analyzer("english")
    guru_reanalyze(guru=guru, store=get_vector_store())

    added = admin_client.post(
        "/api/gurus/daemons/sources/", {"type": "text", "content": MORE}, format="json"
    )

    assert added.status_code == 201, added.json()
    guru.refresh_from_db()
    assert DataSource.objects.filter(guru=guru, status="SUCCESS").count() == 2
    store = get_vector_store()
    assert store.count(guru.collection_name) == sum(
        source.chunk_count for source in guru.sources.all()
    )
    assert len(_bm25(guru, "runs")) == 2  # "runs" and "running", one chunk each


# --- The command ---------------------------------------------------------------------------------


def _command(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("guru_reanalyze", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_command_moves_the_named_gurus(admin_client, analyzer):
    daemons = _guru_with_text(admin_client, "daemons")
    queues = _guru_with_text(admin_client, "queues", MORE)
    analyzer("english")

    out, _ = _command("--guru", "daemons")

    chunks = DataSource.objects.get(guru=daemons).chunk_count
    assert out == f"daemons: moved {chunks} chunks from standard to english\n"
    assert get_vector_store().collection_analyzer(queues.collection_name) == "standard"


def test_the_command_moves_all_gurus_once(admin_client, analyzer):
    _guru_with_text(admin_client, "daemons")
    _guru_with_text(admin_client, "queues", MORE)
    empty = admin_client.post("/api/gurus/", {"slug": "empty", "name": "E"}, format="json")
    assert empty.status_code == 201, empty.json()
    analyzer("english")

    first, _ = _command("--all")
    again, _ = _command("--all")

    assert [line.split(":")[0] for line in first.splitlines()] == ["daemons", "empty", "queues"]
    assert "daemons: moved 1 chunks from standard to english" in first
    # A guru with no chunks yet has an (empty) collection: the copy is cheap and right.
    assert "empty: moved 0 chunks from standard to english" in first
    assert again.splitlines() == [
        "daemons: already on english",
        "empty: already on english",
        "queues: already on english",
    ]


def test_the_command_reports_a_busy_guru_and_goes_on(admin_client, analyzer):
    busy = _guru_with_text(admin_client, "busy")
    _guru_with_text(admin_client, "daemons")
    _processing(busy)
    analyzer("english")

    out = StringIO()
    err = StringIO()
    with pytest.raises(CommandError, match="Not moved: busy"):
        call_command("guru_reanalyze", "--all", stdout=out, stderr=err)

    assert "busy: not moved: A source of 'busy' is being processed" in err.getvalue()
    assert "daemons: moved" in out.getvalue()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "--guru SLUG, or pass --all"),
        (("--all", "--guru", "daemons"), "not both"),
        (("--guru", "daemons", "--guru", "nobody"), "No guru named 'nobody'"),
    ],
)
def test_the_command_needs_gurus_it_knows(admin_client, analyzer, args, message):
    _guru_with_text(admin_client, "daemons")

    with pytest.raises(CommandError, match=message):
        _command(*args)

    assert get_vector_store().collection_analyzer(Guru.objects.get().collection_name) == "standard"


# --- The API -------------------------------------------------------------------------------------


def test_the_api_moves_a_guru_then_says_it_is_there(admin_client, anon_client, analyzer):
    guru = _guru_with_text(admin_client, "daemons")
    chunks = DataSource.objects.get(guru=guru).chunk_count
    analyzer("english")

    moved = admin_client.post("/api/gurus/daemons/reanalyze/")
    again = admin_client.post("/api/gurus/daemons/reanalyze/")

    assert moved.status_code == 200, moved.json()
    assert moved.json() == {"moved": True, "analyzer": "english", "chunks": chunks}
    assert again.json() == {"moved": False, "analyzer": "english", "chunks": chunks}
    answer = anon_client.post(
        "/api/gurus/daemons/answer/",
        {"question": "How often does the scheduler run?"},
        format="json",
    )
    assert answer.status_code == 200, answer.json()


def test_the_api_refuses_while_a_source_is_processed(admin_client, analyzer):
    guru = _guru_with_text(admin_client, "daemons")
    _processing(guru)
    analyzer("english")

    response = admin_client.post("/api/gurus/daemons/reanalyze/")

    assert response.status_code == 409
    assert response.json()["code"] == "conflict"


def test_the_api_knows_only_existing_gurus(admin_client):
    response = admin_client.post("/api/gurus/nobody/reanalyze/")

    assert response.status_code == 404
    assert response.json()["code"] == "guru_not_found"


def test_a_source_deleted_while_its_guru_is_copied_leaves_nothing_in_the_copy(
    admin_client, analyzer
):
    guru = _guru_with_text(admin_client, "moving")
    kept = admin_client.post(
        "/api/gurus/moving/sources/", {"type": "text", "content": MORE}, format="json"
    ).json()
    gone = DataSource.objects.filter(guru=guru).exclude(pk=kept["id"]).get()
    analyzer("english")
    store, old, new = get_vector_store(), guru.collection_name, "moving_copy"
    copied, released = threading.Event(), threading.Event()

    def move_holding_the_lock() -> None:
        """What guru_reanalyze does, paused with the copy done and the switch uncommitted."""
        try:
            with transaction.atomic():
                Guru.objects.select_for_update().get(pk=guru.pk)
                store.copy_collection(old, new)
                Guru.objects.filter(pk=guru.pk).update(collection_name=new)
                copied.set()
                released.wait(timeout=2)  # the delete below waits on the lock meanwhile
        finally:
            connection.close()

    mover = threading.Thread(target=move_holding_the_lock)
    mover.start()
    try:
        assert copied.wait(timeout=60)
        threading.Timer(1.0, released.set).start()
        assert admin_client.delete(f"/api/gurus/moving/sources/{gone.pk}/").status_code == 204
    finally:
        released.set()
        mover.join(timeout=60)
    assert store.count(new, source_id=gone.pk) == 0
    assert store.count(new, source_id=kept["id"]) > 0
    store.drop_collection(old)
    store.drop_collection(new)
