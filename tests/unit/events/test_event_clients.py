"""qconf -secl/-kec on the daemon's side: subscriptions as numbered event clients."""

from __future__ import annotations

from clients.qconf_more import render_event_clients
from qmaster.events.clients import event_clients, kill_event_clients
from qmaster.events.subscribers import Subscribers


def test_subscriptions_are_event_clients_from_11() -> None:
    """The scheduler is client 1 on the qmaster host; qevent streams are 11, 12..."""
    subs = Subscribers()
    subs.subscribe(None, "hostA")
    subs.subscribe(["acct"], "hostB")
    data = event_clients(subs, "master")
    assert data["scheduler_host"] == "master"
    assert [(c["id"], c["name"], c["host"]) for c in data["clients"]] == [
        (1, "scheduler", "master"),
        (11, "qevent", "hostA"),
        (12, "qevent", "hostB"),
    ]


def test_kill_ends_one_subscription_and_refuses_the_scheduler() -> None:
    """-kec 11 ends that stream; 1 and unknown ids are refused; all ends the rest."""
    subs = Subscribers()
    subs.subscribe(None, "h")
    subs.subscribe(None, "h")
    answers = kill_event_clients(subs, ["11", "1", "99"], "root@h")
    assert answers[0].text == "root@h kills qevent"
    assert [a.is_error for a in answers] == [False, True, True]
    assert [c[0] for c in subs.clients()] == [12]
    kill_event_clients(subs, ["all"], "root@h")
    assert subs.clients() == []


def test_secl_table() -> None:
    """The table has Grid Engine's header, a rule and one line per client."""
    text = render_event_clients([{"id": 1, "name": "scheduler", "host": "m"}])
    assert text.splitlines() == [
        "      ID NAME            HOST",
        "-" * 50,
        "       1 scheduler       m",
    ]
