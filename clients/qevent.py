"""``qevent`` — watch the qmaster's job events (standard library only).

Grid Engine 6.2u5's modes (``source/clients/qevent/qevent.c``):

* ``-ts``/``-testsuite`` prints ``JOB_ADD``, ``JOB_START``, ``JOB_FINISH``
  and ``JOB_DEL`` lines and an ``ECL_STATE`` line after each event
  (:mod:`clients.qevent_modes`);
* ``-trigger EVENT SCRIPT`` (repeatable) runs SCRIPT with the event name,
  the job id and the task id each time a ``JB_END`` (a job left the
  qmaster) or ``JB_TASK_END`` (an array task other than the job's last
  left) event arrives.

* ``-sm``/``-subscribe`` subscribes to one more event object type after each
  event cycle and prints the events as the qmaster's ``event_text`` does
  (:mod:`clients.qevent_subscribe`).

minige's own ``-json [-kinds KIND,...]`` prints each event
as a JSON object per line, the mapping of
:func:`qmaster.events.records.record_to_event` plus ``job_del`` and
``jatask_del``. qevent subscribes over the GDI (op ``subscribe``) and runs
until the qmaster closes the connection or standard output is closed.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from clients.common.conventions import parse_command_line
from clients.common.errors import ClientError
from clients.common.pipes import closes_quietly
from clients.qevent_modes import TRIGGER_EVENTS, SuiteMode, Triggers
from clients.qevent_subscribe import (
    DELIVERY_INTERVAL,
    PACKAGE_GAP,
    START_TYPES,
    SubscribeMode,
    kinds_of,
)
from qmaster.gdi.client import Connection, GdiError, Reply

USAGE = """\
usage:
qevent [-h|-help] -ts|-testsuite
qevent [-h|-help] -sm|-subscribe
qevent [-h|-help] -trigger EVENT SCRIPT [ -trigger EVENT SCRIPT, ... ]
qevent [-h|-help] -json [-kinds KIND[,KIND...]]

   -h,  -help             show usage
   -ts, -testsuite        run in testsuite mode
   -sm, -subscribe        run in subscribe mode
   -trigger EVENT SCRIPT  start SCRIPT (executable) when EVENT occurs
   -json                  print each event as a JSON line (minige)
   -kinds KIND[,KIND...]  only these event kinds, with -json (minige)

SCRIPT - path to a executable shell script
         1. command line argument: event name
         2. command line argument: jobid
         3. command line argument: taskid
EVENT  - One of the following event category:
         JB_END      - job end event
         JB_TASK_END - job task end event
"""

MAX_TRIGGER_SCRIPTS = 32
"""qevent.h's limit on ``-trigger`` options."""


@dataclass
class Options:
    """What the command line asks for."""

    testsuite: bool = False
    subscribe: bool = False
    json: bool = False
    kinds: list[str] | None = None
    triggers: list[tuple[str, str]] = field(default_factory=list)

    @property
    def mode(self) -> str | None:
        """The mode qevent runs in, by qevent.c's precedence (``-ts``, ``-sm``, ``-trigger``)."""
        if self.testsuite:
            return "testsuite"
        if self.subscribe:
            return "subscribe"
        if self.triggers:
            return "trigger"
        return "json" if self.json else None


def usage_error(message: str) -> ClientError:
    """A command line qevent refuses: the message (``error: ...``), then the usage, exit 1."""
    return ClientError("error: " + message, 1, show_usage=True)


def parse_args(argv: list[str]) -> Options:
    """The options of ``argv``, checked as qevent.c does. Raises :class:`ClientError`."""
    opts = Options()
    errors: list[str] = []
    words = iter(argv)
    for word in words:
        if word in ("-ts", "-testsuite"):
            opts.testsuite = True
        elif word in ("-sm", "-subscribe"):
            opts.subscribe = True
        elif word in ("-json", "--json"):
            opts.json = True
        elif word in ("-kinds", "--kinds"):
            value = next(words, None)
            if not value:
                raise usage_error(f'option "{word}": found no KIND argument')
            opts.kinds = [k for k in value.split(",") if k]
        elif word == "-trigger":
            problem = _take_trigger(opts, words)
            if problem:
                errors.append(problem)
                break
        elif word.startswith("-"):
            errors.append(f"unkown option: {word}")
        else:
            errors.append(f"unkown argument: {word}")
    if errors:
        raise usage_error("\n".join(errors))
    if opts.mode is None:
        raise usage_error("no option selected")
    return opts


def _take_trigger(opts: Options, words: Iterable[str]) -> str | None:
    """Read ``-trigger EVENT SCRIPT``; qevent.c's complaint, or None."""
    if len(opts.triggers) >= MAX_TRIGGER_SCRIPTS:
        return f'option "-trigger": only {MAX_TRIGGER_SCRIPTS} trigger arguments supported'
    it = iter(words)
    event = next(it, None)
    if event is None:
        return 'option "-trigger": found no EVENT argument'
    if event not in TRIGGER_EVENTS:
        return 'option "-trigger": undefined EVENT type'
    script = next(it, None)
    if script is None:
        return 'option "-trigger": found no SCRIPT argument'
    if not os.path.isfile(script):
        return f'option "-trigger": SCRIPT file {script} not found'
    if not os.access(script, os.X_OK):
        return f'option "-trigger": SCRIPT file {script} not executable'
    opts.triggers.append((event, script))
    return None


def print_events(replies: Iterable[Reply], fd: int = 1) -> int:
    """``-json``: write each reply's ``data`` as a JSON line; the exit status."""
    for data in events_of(replies):
        if data is None:
            return 1
        if not _write(fd, json.dumps(data, separators=(",", ":")) + "\n"):
            return 0
    return 0


def events_of(replies: Iterable[Reply]) -> Iterable[dict[str, Any] | None]:
    """The events of a subscription; ``None`` (after printing the errors) if the qmaster refused."""
    for reply in replies:
        if not reply.ok:
            for answer in reply.answers:
                if answer.is_error:
                    print(answer.text, file=sys.stderr)
            yield None
            return
        if isinstance(reply.data, dict):
            yield reply.data


def _write(fd: int, text: str) -> bool:
    view = memoryview(text.encode())
    try:
        while view:
            view = view[os.write(fd, view) :]
    except OSError:  # EPIPE: the reader went away
        return False
    return True


def run(opts: Options, replies: Iterable[Reply]) -> int:
    """Run the mode ``opts`` asks for over a subscription's replies; the exit status."""
    if opts.mode == "json":
        return print_events(replies)
    handler = SuiteMode(_write) if opts.mode == "testsuite" else Triggers(opts.triggers)
    for event in events_of(replies):
        if event is None:
            return 1
        if not handler.handle(event):
            return 0
    return 0


def run_subscribe_mode(conn: Connection) -> int:
    """``-sm``: print events and move the subscription on after each event cycle."""
    mode = SubscribeMode(
        lambda text: _write(1, text), lambda kinds: conn.send("subscribe", {"kinds": kinds})
    )
    wait = DELIVERY_INTERVAL
    while True:
        try:
            reply = conn.receive(wait)
        except TimeoutError:
            # a delivery ends when no more events follow; a quiet interval is a cycle too
            if not mode.cycle():
                return 0
            wait = DELIVERY_INTERVAL
            continue
        if reply is None:
            return 0
        if not reply.ok:
            for answer in reply.answers:
                if answer.is_error:
                    print(answer.text, file=sys.stderr)
            return 1
        data = reply.data if isinstance(reply.data, dict) else {}
        if data.get("type") == "subscribed":
            continue
        if not mode.event(data):
            return 0
        wait = PACKAGE_GAP


def subscription_kinds(opts: Options) -> list[str] | None:
    """The event kinds a mode needs (the qmaster sends only these)."""
    if opts.mode == "json":
        return opts.kinds
    if opts.mode == "testsuite":
        return [*SuiteMode.KINDS]
    if opts.mode == "subscribe":
        return kinds_of(set(START_TYPES))
    return sorted({TRIGGER_EVENTS[event] for event, _ in opts.triggers})


@closes_quietly
def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    opts = parse_command_line("qevent", USAGE, args, parse_args)
    if isinstance(opts, int):
        return opts
    try:
        with Connection(timeout=None) as conn:
            conn.send("subscribe", {"kinds": subscription_kinds(opts)})
            if opts.mode == "subscribe":
                return run_subscribe_mode(conn)
            return run(opts, conn.stream())
    except GdiError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
