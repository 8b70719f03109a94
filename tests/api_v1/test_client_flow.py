"""The public API as a new user meets it: plain httpx against the ASGI app under uvicorn,
guided only by the README and /api/docs/. Real parts throughout: a PDF written by reportlab,
the loopback docs site, the Milvus Lite engine, eager ingestion."""

import time

import httpx
import pytest

from tests.fakes.docs_site import SMALL_DOCS, DocsSite
from tests.sources.ingestion_helpers import guide_pdf

pytestmark = pytest.mark.django_db(transaction=True)

ADMIN = {"Authorization": "Bearer test-admin-token"}


def _poll_until_done(client: httpx.Client, url: str, headers: dict, ids: set[int]) -> list[dict]:
    deadline = time.monotonic() + 120
    while True:
        listed = client.get(url, headers=headers).json()["results"]
        mine = [s for s in listed if s["id"] in ids]
        if all(s["status"] in ("SUCCESS", "FAIL") for s in mine) or time.monotonic() > deadline:
            return mine
        time.sleep(0.5)


def test_a_new_user_adds_sources_asks_follows_up_searches_and_cleans_up(live_asgi):
    with httpx.Client(base_url=live_asgi, timeout=60) as client, DocsSite(SMALL_DOCS) as site:
        # 1. A key, created once by a signed-in admin (the token here; a session works too).
        created = client.post("/api/api-keys/", headers=ADMIN, json={"name": "my script"})
        assert created.status_code == 201, created.text
        key = {"X-API-KEY": created.json()["key"]}
        listed = client.get("/api/api-keys/", headers=ADMIN).json()
        assert [k["name"] for k in listed] == ["my script"]
        assert "key" not in listed[0]

        # 2. The same key creates the guru (a staff user's key works on the admin API).
        guru = client.post("/api/gurus/", headers=key, json={"slug": "acme", "name": "Acme"})
        assert guru.status_code == 201, guru.text
        v1 = "/api/v1/acme"

        # 3. A text source, a website page from the docs site, and a PDF.
        added = client.post(
            f"{v1}/data-sources/",
            headers=key,
            json={
                "text_sources": [
                    {
                        "name": "Launch checklist",
                        "content": "# Launch checklist\n\nBefore a launch, fuel the rocket "
                        "with liquid oxygen and check the weather forecast for wind.",
                    }
                ],
                "website_urls": [f"{site.url}/intro.html"],
            },
        )
        assert added.status_code == 200, added.text
        assert [r["status"] for r in added.json()] == ["success", "success"]
        assert {r["type"] for r in added.json()} == {"TEXT", "WEBSITE"}
        pdf = client.post(
            f"{v1}/data-sources/",
            headers=key,
            files={"pdf_files": ("guide.pdf", guide_pdf(), "application/pdf")},
        )
        assert pdf.status_code == 200, pdf.text
        ids = {r["id"] for r in [*added.json(), *pdf.json()]}

        sources = _poll_until_done(client, f"{v1}/data-sources/", key, ids)
        assert {s["status"] for s in sources} == {"SUCCESS"}, sources
        assert {s["type"] for s in sources} == {"TEXT", "WEBSITE", "PDF"}

        # 4. Ask: JSON, then a stream of raw markdown, then the stored answer.
        question = "What do I fuel the rocket with before a launch?"
        answer = client.post(f"{v1}/answer/", headers=key, json={"question": question})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert set(body) == {
            "slug", "content", "question", "date_updated", "trust_score", "references",
            "session_id",
        }  # fmt: skip
        assert "oxygen" in body["content"]
        assert isinstance(body["trust_score"], int) and 0 < body["trust_score"] <= 100
        assert body["references"][0]["title"] == "Launch checklist"
        assert set(body["references"][0]) == {"link", "icon", "title"}

        streamed_question = "How do rangers identify the aardvark at night?"
        with client.stream(
            "POST",
            f"{v1}/answer/",
            headers=key,
            json={"question": streamed_question, "stream": True},
        ) as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"].startswith("text/event-stream")
            text = "".join(stream.iter_text())
        assert text.startswith(f"# {streamed_question}\n")
        assert "data:" not in text
        fetched = client.post(
            f"{v1}/answer/",
            headers=key,
            json={"question": streamed_question, "fetch_existing": True},
        ).json()
        assert fetched["content"].strip() in text
        assert fetched["references"] and fetched["session_id"]

        # 5. A follow-up in the first answer's session.
        follow = client.post(
            f"{v1}/answer/",
            headers=key,
            json={"question": "And what should I check about the weather?",
                  "session_id": body["session_id"]},
        )  # fmt: skip
        assert follow.status_code == 200, follow.text
        assert follow.json()["session_id"] == body["session_id"]
        session = client.get(f"{v1}/sessions/{body['session_id']}/", headers=key).json()
        assert [q["question"] for q in session["questions"]][-1].startswith("And what should")
        assert len(session["questions"]) == 2
        sessions = client.get(f"{v1}/sessions/", headers=key).json()
        assert body["session_id"] in {s["session_id"] for s in sessions["results"]}

        # 6. Search: passages with links, no answer.
        found = client.post(f"{v1}/search/", headers=key, json={"query": "liquid oxygen"})
        assert found.status_code == 200, found.text
        top = found.json()["results"][0]
        assert set(top) == {"title", "link", "text", "score"}
        assert "oxygen" in top["text"]

        # 7. Re-index one source, delete another; the list shows it.
        website = next(s for s in sources if s["type"] == "WEBSITE")
        pdf_id = next(s["id"] for s in sources if s["type"] == "PDF")
        reindexed = client.post(
            f"{v1}/data-sources/reindex/", headers=key, json={"ids": [website["id"]]}
        )
        assert reindexed.status_code == 200 and "msg" in reindexed.json()
        deleted = client.request(
            "DELETE", f"{v1}/data-sources/", headers=key, json={"ids": [pdf_id]}
        )
        assert deleted.status_code == 200 and "msg" in deleted.json()
        after = client.get(f"{v1}/data-sources/", headers=key).json()
        assert after["count"] == 2
        assert {s["id"] for s in after["results"]} == ids - {pdf_id}
        reindexed_site = next(s for s in after["results"] if s["id"] == website["id"])
        assert reindexed_site["reindex_count"] == website["reindex_count"] + 1
        assert reindexed_site["last_reindex_date"] > website["last_reindex_date"]
        assert client.delete(f"{v1}/sessions/{body['session_id']}/", headers=key).status_code == 200
