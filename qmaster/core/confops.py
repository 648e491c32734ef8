"""Configuration requests (qconf) and the shutdown request.

The configuration store validates and renders; the core adds the privilege
check, turns a change into spool rows and takes the new configuration into
use at once.
"""

from __future__ import annotations

from qmaster.conf.errors import ConfigError, ConfNotFound
from qmaster.core import arconf, arlife, lifecycle, qcalendar, unknownhosts
from qmaster.core.activetasks import active_tasks
from qmaster.core.errors import InvalidRequest, NoSuchObject, NotManager
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.qmodops import apply_initial_states
from qmaster.core.quotashow import quota_usage
from qmaster.core.registry import handler
from qmaster.core.states import TaskState
from qmaster.core.stimuli import ConfChange, ConfShow, KillExecd, Shutdown
from qmaster.model import Status, error, ok

LIVE = (TaskState.TRANSFERRING, TaskState.RUNNING, TaskState.DELETING)


@handler(ConfShow)
def handle_show(core: Core, args: ConfShow, now: float, out: Outcome) -> None:
    """qconf -s*: the object in its file format, or the list of names."""
    try:
        data = core.config.show(args.kind, args.name, args.template)
    except ConfNotFound as exc:
        raise NoSuchObject(str(exc)) from exc
    except ConfigError as exc:
        raise InvalidRequest(exc.reason) from exc
    out.answers.extend(error(text, Status.EEXIST) for text in data.pop("missing", []))
    out.data = {**data, **quota_usage(core)} if args.usage else data


@handler(ConfChange)
def handle_change(core: Core, args: ConfChange, now: float, out: Outcome) -> None:
    """qconf's writes: the configuration store plans and checks them, all or nothing."""
    who = args.identity
    before = {qi.name for qi in core.config.queue_instances()}
    try:
        change = core.config.apply(
            args.op,
            args.request(),
            user=who.user,
            host=who.host,
            is_manager=core.is_manager(who),
            veto=lambda new: arconf.conflict(core, new),
        )
    except ConfNotFound as exc:
        raise NoSuchObject(str(exc)) from exc
    except ConfigError as exc:
        raise InvalidRequest(str(exc)) from exc
    if any(a.is_error for a in change.answers):
        out.answers.extend(change.answers)
        return
    for kind, name, text in change.upserts:
        out.spool.config[(kind, name)] = text
    for kind, name in change.deletes:
        out.spool.config[(kind, name)] = None
    core.replace_config(core.config)
    apply_initial_states(core, before, now, out)
    qcalendar.refresh(core, now, out)
    if core.ars:
        arlife.check_resources(core, now, out)
    out.config_changed = bool(change.upserts or change.deletes)
    out.answers.extend(change.answers)
    out.log("config_changed", op=args.op, user=who.user)
    core.request_pass(now)


@handler(Shutdown)
def handle_shutdown(core: Core, args: Shutdown, now: float, out: Outcome) -> None:
    """qconf -km: managers may stop the qmaster."""
    who = args.identity
    if not core.is_manager(who):
        raise NotManager(f'denied: "{who.user}" must be manager for this operation')
    out.answers.append(ok(f"{who.user}@{who.host} kills qmaster"))
    out.shutdown = True


@handler(KillExecd)
def handle_kill_execd(core: Core, args: KillExecd, now: float, out: Outcome) -> None:
    """qconf -ke[j]: the execd of each host shuts down, so its queue instances are unknown
    (``u``: no new jobs, ARs on them in error); with ``-kej`` it first kills the jobs whose
    master queue is there. Running jobs of ``-ke`` go on, as they do without their execd.
    A qmaster restart starts the simulated execds again."""
    who = args.identity
    if not core.is_manager(who):
        raise NotManager("shutting down execd requires manager privileges")
    known = [h for h in core.config.exechosts if h != "global"]
    hosts = sorted(known) if "all" in args.hosts else args.hosts
    for host in hosts:
        if host not in known:
            out.answers.append(error(f'"{host}" is not an execution host', Status.ESEMANTIC))
            continue
        action = "shutdown and kill" if args.jobs else "shutdown"
        out.answers.append(ok(f"sent {action} notification to  execd host {host}"))
        if args.jobs:
            _kill_jobs_on(core, host, now, out)
        core.down_hosts.add(host)
        unknownhosts.host_went_down(core, host, now)
    arlife.check_resources(core, now, out)
    core.request_pass(now)


def _kill_jobs_on(core: Core, host: str, now: float, out: Outcome) -> None:
    """Kill every task whose master queue instance is on ``host`` (accounted, exit 137)."""
    for job, task in list(active_tasks(core)):
        queue = task.queue or ""
        if task.state in LIVE and queue.partition("@")[2] == host:
            if task.state is not TaskState.DELETING:
                task.move(job.job_id, TaskState.DELETING, f"kill execd on host {host}")
            lifecycle.killed(core, job, task, now, out)
