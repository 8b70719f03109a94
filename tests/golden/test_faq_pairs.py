"""A FAQ source is a golden set by itself: each entry's question expects that entry, and the
pairs follow the FAQ when it is re-indexed with entries added or removed."""

from openguru.evaluation.models import GoldenPair, GoldenRun
from openguru.sources.services import source_create

from tests.golden.conftest import reindex_with
from tests.gurus.helpers import guru_make

FAQ = """Q: How do I reset my password?
A: Use the reset link on the sign-in page; it mails you a new one.

Q: Where do I find my invoices?
A: Every invoice is under Billing, newest first.
"""
NEW_ENTRY = """
Q: Can I export my data?
A: Settings has an export button that writes a zip of everything.
"""


def test_faq_entries_become_pairs_and_follow_the_faq(transactional_db, admin_client):
    guru = guru_make(slug="shop", name="Shop")
    faq = source_create(guru=guru, type="faq", title="Help", content=FAQ)

    listed = admin_client.get("/api/gurus/shop/golden/pairs/").json()
    assert [(p["question"], p["expected_source_id"], p["origin"]) for p in listed] == [
        ("How do I reset my password?", faq.pk, "faq"),
        ("Where do I find my invoices?", faq.pk, "faq"),
    ]
    first = GoldenRun.objects.get()  # the FAQ's own indexing ran its questions
    assert (first.trigger_source_id, first.pairs, first.recall_at_5) == (faq.pk, 2, 1.0)
    # Each question found its own entry, not merely the FAQ source.
    assert all(d["top"][d["found_rank"] - 1]["title"] == d["question"] for d in first.details)

    kept = GoldenPair.objects.get(question="Where do I find my invoices?")
    edited = FAQ.split("\n\n", 1)[1] + NEW_ENTRY  # the password entry removed, one added
    reindex_with(faq, edited)

    pairs = GoldenPair.objects.filter(expected_source=faq).order_by("pk")
    assert [p.question for p in pairs] == ["Where do I find my invoices?", "Can I export my data?"]
    assert pairs[0].pk == kept.pk  # an entry still there keeps its pair, and its history
    latest = GoldenRun.objects.order_by("pk").last()
    assert (latest.pairs, latest.recall_at_5, latest.flagged) == (2, 1.0, False)


def test_a_maintainers_pair_on_a_faq_question_is_left_alone(transactional_db, admin_client):
    guru = guru_make(slug="shop", name="Shop")
    faq = source_create(guru=guru, type="faq", title="Help", content=FAQ)
    GoldenPair.objects.filter(question="How do I reset my password?").delete()
    manual = admin_client.post(
        "/api/gurus/shop/golden/pairs/",
        {"question": "How do I reset my password?", "expected_source_id": faq.pk},
        format="json",
    ).json()

    reindex_with(faq, FAQ)

    origins = dict(GoldenPair.objects.values_list("question", "origin"))
    assert origins == {
        "How do I reset my password?": "manual",
        "Where do I find my invoices?": "faq",
    }
    assert GoldenPair.objects.filter(pk=manual["id"]).exists()
