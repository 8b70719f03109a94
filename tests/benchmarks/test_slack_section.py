"""The Slack section's arithmetic: which Slack Web API calls belong to which event, and the
times from sending an event to its Thinking post, first edit and final answer."""

from benchmarks.slack import _replies, _summary

from tests.fakes.slack_server import FakeSlackServer, SlackCall


def _slack_with(*calls: SlackCall) -> FakeSlackServer:
    server = FakeSlackServer(token="x")
    server.calls.extend(calls)
    return server


def test_each_reply_is_timed_from_its_own_event():
    slack = _slack_with(
        SlackCall("chat.postMessage", {"thread_ts": "1.1"}, ts="R1", at=10.5),
        SlackCall("chat.postMessage", {"thread_ts": "2.1"}, ts="R2", at=11.0),
        SlackCall("chat.update", {"ts": "R2", "text": "Py …"}, ts="R2", at=11.5),
        SlackCall("chat.update", {"ts": "R1", "text": "A …"}, ts="R1", at=12.0),
        SlackCall("chat.update", {"ts": "R1", "text": "A\n*Trust score:* 80%"}, ts="R1", at=13.0),
        SlackCall("chat.postMessage", {"thread_ts": "9.9"}, ts="R9", at=14.0),  # not ours
    )
    seen = _replies(slack, {"1.1": 10.0, "2.1": 10.0})

    assert seen == {
        "1.1": {"thinking_ms": 500.0, "first_edit_ms": 2000.0, "final_ms": 3000.0},
        "2.1": {"thinking_ms": 1000.0, "first_edit_ms": 1500.0},
    }
    summary = _summary([100.0, 3100.0], seen, sent=2)
    assert summary["answered"] == 1 and summary["events"] == 2
    assert summary["ack"]["under_3s"] == 1 and summary["ack"]["max_ms"] == 3100.0
    assert summary["event_to_final"]["p50_ms"] == 3000.0
