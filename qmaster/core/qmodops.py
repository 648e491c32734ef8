"""qmod(1): disable, enable, suspend, unsuspend and clear queue instances; suspend,
unsuspend, clear and reschedule jobs.

Queue instances may be changed by managers and by the users in the queue's
``owner_list``; jobs by their owner and managers. ``-s``, ``-us``, ``-c`` and
``-r`` act on a job when the target is a job id (or a job name no queue
instance matches), else on queue instances;
``-sj``/``-sq`` and the like say which. The answers are Grid Engine's
(``root@host changed state of "all.q@host1" (disabled)``); a change to the
state a queue instance is already in is a warning.
"""

from __future__ import annotations

import re

from qmaster.conf.state import QueueInstanceConf
from qmaster.core import arlife, qstates, suspension
from qmaster.core.control import select_jobs
from qmaster.core.jobs import Identity
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.qmodjobs import on_job
from qmaster.core.registry import handler
from qmaster.core.reschedule import reschedule_queue
from qmaster.core.stimuli import Qmod
from qmaster.model import Answer, Status, error, ok, warning
from schedd.matching import wc_queue_matches

_JOB_ONLY = {"sj": "s", "usj": "us", "cj": "c", "rj": "r"}
_QUEUE_ONLY = {"sq": "s", "usq": "us", "cq": "c", "rq": "r", "d": "d", "e": "e"}
_SENT_RANGE = re.compile(r"\d+-\d+:\d+(,\d+-\d+:\d+)*")  # a -t range qmod joined to a name
_JOB_REF = re.compile(r"^\d+(\.\d+(-\d+(:\d+)?)?(,\d+(-\d+(:\d+)?)?)*)?$")
# the manual state each queue verb sets (True) or clears (False)
_QUEUE_VERBS = {"d": ("d", True), "e": ("d", False), "s": ("s", True), "us": ("s", False),
                "c": ("E", False)}  # fmt: skip


@handler(Qmod)
def handle_qmod(core: Core, args: Qmod, now: float, out: Outcome) -> None:
    """qmod: as Grid Engine's sge_gdi_qmod, a word names queue instances first; failing
    that, a job id (or, for -sj/-usj/-cj/-rj, a job name or pattern)."""
    who, force = args.identity, args.force
    for target in args.targets:
        verb = _JOB_ONLY.get(args.action) or _QUEUE_ONLY.get(args.action) or args.action
        if args.action not in _JOB_ONLY and match_queues(core, target):
            _on_queues(core, who, verb, target, force, now, out)
            continue
        jobs = []
        if args.action in _JOB_ONLY or (args.action not in _QUEUE_ONLY and _JOB_REF.match(target)):
            jobs = select_jobs(core, target)
        found = False
        for job, ids in jobs:
            answers = on_job(core, who, verb, job, ids, force, now, out)
            out.answers.extend(answers)
            found |= bool(answers)  # sge_gdi_qmod(): a task of the job was named
        if found:
            continue
        shown = target  # ID_str: sge_parse_jobtasks() keeps a job id's part before "."
        if args.action not in _QUEUE_ONLY and target[:1] in "0123456789" and target:
            shown = target.partition(".")[0]
        elif args.action not in _QUEUE_ONLY and _SENT_RANGE.fullmatch(target.rpartition(".")[2]):
            shown = target.rpartition(".")[0]  # a name's -t range travels in ID_ja_structure
        if args.action in _QUEUE_ONLY or args.action in ("c", "r"):
            out.answers.append(error(f'invalid queue "{shown}"', Status.EEXIST))
        else:
            out.answers.append(error(f'invalid queue or job "{shown}"', Status.EEXIST))
    if any(not a.is_error for a in out.answers):
        core.request_pass(now)


# -- queue instances ------------------------------------------------------------------


def match_queues(core: Core, pattern: str) -> list[QueueInstanceConf]:
    """The queue instances ``pattern`` names: ``q``, ``q@host``, ``*@host``, ``q@@group``."""
    groups = core.config.state.groups_of
    return [
        qi
        for qi in core.config.queue_instances()
        if wc_queue_matches(pattern, qi.cqueue, qi.host, groups(qi.host))
    ]


def may_change_queue(core: Core, who: Identity, qi: QueueInstanceConf) -> bool:
    """Managers and operators, and the users in the queue's ``owner_list``."""
    owners = qi.attrs.get("owner_list", "NONE").replace(",", " ").split()
    return core.is_operator(who) or who.user in owners


def _on_queues(
    core: Core, who: Identity, verb: str, pattern: str, force: bool, now: float, out: Outcome
) -> None:
    for qi in match_queues(core, pattern):
        if not may_change_queue(core, who, qi):
            text = f'{who.user} - you have no permission to modify queue "{qi.name}"'
            out.answers.append(error(text, Status.ENOOPR))
        elif verb == "r":
            out.answers.extend(reschedule_queue(core, who, qi.name, force, now, out))
        else:
            letter, on = _QUEUE_VERBS[verb]
            out.answers.append(change_state(core, who, qi.name, letter, on, force, now, out))


def change_state(
    core: Core,
    who: Identity,
    qi_name: str,
    letter: str,
    on: bool,
    force: bool,
    now: float,
    out: Outcome,
) -> Answer:
    """Set or clear one manual state of a queue instance, with what follows from it."""
    old = core.qi_states.get(qi_name, frozenset())
    name = qstates.NAMES[letter][0 if on else 1]
    new = qstates.transition(old, letter, on)
    if new is None:
        text = f'Queue instance "{qi_name}" is already in the specified state: {name}'
        return warning(text, Status.ESEMANTIC)
    _set_manual(core, qi_name, new, out)
    if letter == "s":
        suspension.follow_queue(core, qi_name, now, out)
    if core.ars:
        arlife.check_resources(core, now, out)
    out.log("queue_state_changed", queue=qi_name, state=name, user=who.user)
    verb = "forced state change of" if force else "changed state of"
    return ok(f'{who.user}@{who.host} {verb} "{qi_name}" ({name})')


def apply_initial_states(core: Core, before: set[str], now: float, out: Outcome) -> None:
    """After a configuration change: a queue instance that went loses its states; a new one
    starts as its queue's ``initial_state`` says (queue_conf(5): ``disabled``, else enabled)."""
    now_names = set()
    for qi in core.config.queue_instances():
        now_names.add(qi.name)
        if qi.name not in before:
            initial = frozenset("d") if qi.attrs.get("initial_state") == "disabled" else None
            _set_manual(core, qi.name, initial or frozenset(), out)
    for gone in before - now_names:
        _set_manual(core, gone, frozenset(), out)


def _set_manual(core: Core, qi_name: str, flags: frozenset[str], out: Outcome) -> None:
    if core.qi_states.get(qi_name, frozenset()) == flags:
        return
    if flags:
        core.qi_states[qi_name] = flags
    else:
        core.qi_states.pop(qi_name, None)
    out.spool.counters[qstates.spool_key(qi_name)] = qstates.encode(flags)
