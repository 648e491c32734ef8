"""qevent -sm: the object-type cycle and the event lines, as 6.2u5's qevent_subscribe_mode."""

from __future__ import annotations

from clients.qevent import parse_args, subscription_kinds
from clients.qevent_subscribe import ALL, JOB, NONE, SubscribeMode, describe
from qmaster.events.records import record_to_event
from qmaster.events.testing import acct, job_log


def _mode() -> tuple[SubscribeMode, list[str], list[list[str] | None]]:
    out: list[str] = []
    changes: list[list[str] | None] = []
    mode = SubscribeMode(lambda text: out.append(text) is None, changes.append)
    return mode, out, changes


def test_sm_and_subscribe_select_the_mode_starting_on_shutdown_events() -> None:
    """-sm and -subscribe select subscribe mode; it starts subscribed to SHUTDOWN only."""
    assert parse_args(["-sm"]).mode == "subscribe"
    assert parse_args(["-subscribe"]).mode == "subscribe"
    assert subscription_kinds(parse_args(["-sm"])) == ["qmaster_goes_down", "shutdown"]


def test_each_cycle_subscribes_the_next_type_then_all_are_dropped() -> None:
    """Cycles print Subscribe event_type: 1..32, then Unsubscribe all event_types, then 1 again."""
    mode, out, changes = _mode()
    for _ in range(NONE + 2):
        assert mode.cycle()
    expected = [f"Subscribe event_type: {n}\n" for n in range(1, NONE + 1)]
    assert out == [*expected, "Unsubscribe all event_types\n", "Subscribe event_type: 1\n"]
    job_kinds = {"job_log", "jatask_del", "new_job", "acct", "job_del"}
    assert changes[JOB - 1] == sorted(job_kinds | {"shutdown", "qmaster_goes_down"})
    assert changes[ALL - 1] is None  # SGE_TYPE_ALL: every event
    assert changes[NONE] == []  # after "Unsubscribe all": nothing


def test_events_print_only_for_subscribed_types_numbered_by_arrival() -> None:
    """An event of a type not yet subscribed is counted but not printed; later ones are."""
    mode, out, _ = _mode()
    started = record_to_event(job_log(100, "running", 7))
    mode.event(started)
    for _ in range(JOB):
        mode.cycle()
    mode.event({"type": "new_job", "job_number": 8})
    mode.event(record_to_event(acct(110, 7)))
    mode.event({"type": "job_del", "job_number": 7, "task_number": 1})
    events = [line for line in out if "EVENT" in line]
    assert events == [
        "2. EVENT ADD JOB 8\n",
        "3. EVENT JOB 7.1 FINAL USAGE\n",
        "4. EVENT DEL JOB 7\n",
    ]


def test_event_texts_follow_event_text() -> None:
    """Each event kind reads as the qmaster's event_text prints its Grid Engine event."""
    assert describe({"type": "jatask_del", "job_number": 3, "task_number": 2}) == (
        6,
        "DEL JATASK 3.2",
    )
    assert describe({"type": "job_log", "event": "held", "job_number": 3}) == (JOB, "MOD JOB 3")
    assert describe({"type": "new_ar", "ar_id": 5}) == (29, "ADD ADVANCE RESERVATION 5")
    assert describe({"type": "ar_log", "ar_id": 5, "event": "DELETED"}) == (
        29,
        "DEL ADVANCE RESERVATION 5",
    )
    assert describe({"type": "shutdown"}) == (19, "SHUTDOWN")
    assert describe({"type": "qmaster_goes_down"}) == (19, "QMASTER GOES DOWN")
