"""``qconf -secl``, ``-sss`` and ``-kec``: the event clients of a cell, as Grid Engine lists them.

The scheduler runs inside the qmaster; it is event client 1 (``scheduler``) on the
qmaster's host. Each open ``subscribe`` stream (``qevent``, ``seg``) is a dynamic
event client numbered from 11, as Grid Engine numbers them. ``-kec`` ends
subscriptions; the scheduler cannot be killed (it is part of the qmaster).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from qmaster.core import Core, Identity
from qmaster.digits import is_digits
from qmaster.events.subscribers import Subscribers
from qmaster.gdi.answers import Answer, Status, error, ok
from qmaster.gdi.messages import EventKillArgs
from qmaster.gdi.server import Reply

SCHEDULER_ID = 1
EVENT_CLIENT_OPS = frozenset({"event_clients", "event_kill"})


def event_client_request(
    op: str, args: BaseModel, who: Identity, subscribers: Subscribers, host: str, core: Core
) -> Reply:
    """Answer ``event_clients`` (anyone) or ``event_kill`` (managers)."""
    if op == "event_clients":
        return Reply([], event_clients(subscribers, host))
    assert isinstance(args, EventKillArgs)
    if not core.is_manager(who):
        text = f'denied: "{who.user}" must be manager for this operation'
        return Reply([error(text, Status.ENOMGR)])
    return Reply(kill_event_clients(subscribers, args.ids, f"{who.user}@{who.host}"))


def event_clients(subscribers: Subscribers, qmaster_host: str) -> dict[str, Any]:
    """The ``event_clients`` reply: the scheduler, then the subscriptions by id."""
    rows = [{"id": SCHEDULER_ID, "name": "scheduler", "host": qmaster_host}]
    rows += [{"id": i, "name": name, "host": host} for i, name, host in subscribers.clients()]
    return {"clients": rows, "scheduler_host": qmaster_host}


def kill_event_clients(subscribers: Subscribers, ids: list[str], who: str) -> list[Answer]:
    """End the subscriptions named by id (``all``: every one); answers as Grid Engine's."""
    known = {i: name for i, name, _ in subscribers.clients()}
    wanted = sorted(known) if "all" in ids else ids
    answers: list[Answer] = []
    for ref in wanted:
        number = int(ref) if is_digits(str(ref)) else None
        if number == SCHEDULER_ID:
            answers.append(error("the scheduler runs inside the qmaster; use qconf -km"))
        elif number is None or number not in known:
            answers.append(error(f"event client {ref} not registered", Status.EEXIST))
        else:
            subscribers.kill(number)
            answers.append(ok(f"{who} kills {known[number]}"))
    return answers
