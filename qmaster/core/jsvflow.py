"""The server JSV as an effect: submissions and alterations wait for its verdict.

With a ``jsv_url`` set, a :class:`~qmaster.core.stimuli.Submit` or
:class:`~qmaster.core.stimuli.Alter` is answered later: the core emits one
:class:`~qmaster.core.effects.VerifyJob` per job (the id it allocated itself,
the job as the JSV sees it, the ``-w`` mode) and keeps the request; the driver
runs the JSV and hands each answer back as a :class:`JsvVerdict`. When the
last verdict of a request is in, the request is carried out and its outcome
carries the :class:`~qmaster.core.effects.Reply` to the waiting client.

- ``submit``: as Grid Engine's sge_gdi_add_job(), the job passes the qmaster's
  checks first (:func:`~qmaster.core.submit.admitted_job`): a refusal, or the
  answer to ``-w v|p``, comes before the JSV is asked (it never sees such a
  job), with the job's id used up. Then the job is verified in server context
  (``JOB_ID`` is the id the job will get). ACCEPT keeps it, CORRECT replaces it
  with the corrected job (checked again as any job is), REJECT refuses it with
  the JSV's message, REJECT_WAIT refuses it too unless
  ``jsv_reject_wait_retries`` lets it wait for verification (beyond Grid
  Engine; :mod:`qmaster.core.verification`).
- ``alter``: qalter may change only the parameters in ``jsv_allowed_mod``
  (:mod:`qmaster.core.jsvrules`), and, beyond Grid Engine, each altered job is
  verified again, so a change cannot slip past the policy.

A job waiting for verification has a ``reverify`` timer; when it fires, the core
asks the JSV again (a ``VerifyJob`` without a waiting request).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from qmaster.core.control import handle_alter, select_jobs
from qmaster.core.effects import VerifyJob
from qmaster.core.errors import CoreError
from qmaster.core.jobs import Job
from qmaster.core.jobspec import JobSpec
from qmaster.core.jsvrules import disallowed_changes, refused_text, with_verify
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.registry import HOOKS, Timer, handler
from qmaster.core.specs import altered_spec, changes_with_full_names, with_full_names
from qmaster.core.stimuli import Alter, JsvVerdict, Submit
from qmaster.core.submit import admitted_job, handle_submit
from qmaster.core.taskids import TaskIds
from qmaster.core.verdicts import REVERIFY, corrected, late_verdict
from qmaster.model import Answer, Status, error

ACCEPTED = ("ACCEPT", "CORRECT")


@dataclass(slots=True)
class Slot:
    """One job of a waiting request: answers known at once, a qalter reference the
    core answers as it is (no such job), or a job the JSV is asked about (``ref``
    names it with the task range the request gave)."""

    answers: list[Answer] | None = None
    ref: str | None = None
    job_id: int | None = None
    spec: JobSpec | None = None
    """The job as it would be (for qalter, changed), before the JSV's verdict."""
    verdict: JsvVerdict | None = None


@dataclass(slots=True)
class Waiting:
    """A client request waiting for the server JSV's verdicts."""

    stimulus: Submit | Alter
    slots: list[Slot] = field(default_factory=list)

    def complete(self) -> bool:
        return all(s.spec is None or s.verdict is not None for s in self.slots)


def jsv_set(core: Core) -> bool:
    """A server JSV is configured."""
    return core.config.global_conf.jsv_url is not None


@handler(Submit)
def route_submit(core: Core, args: Submit, now: float, out: Outcome) -> None:
    """qsub: through the server JSV when one is set, else stored at once."""
    if not jsv_set(core):
        handle_submit(core, args, now, out)
        return
    spec = with_full_names(args.job, core.config.complexes)
    first = Outcome()  # sge_gdi_add_job() runs sge_job_verify_adjust() before the JSV:
    job = admitted_job(core, args, now, first)  # a refusal is answered, and -w v|p too,
    if job is None:  # without asking the JSV; the number is taken as in Grid Engine
        out.answers.extend(first.answers)
        return
    _ask(core, Waiting(args, [Slot(job_id=job.job_id, spec=spec)]), now, out)


@handler(Alter)
def route_alter(core: Core, args: Alter, now: float, out: Outcome) -> None:
    """qalter: through the server JSV when one is set, else carried out at once."""
    if not jsv_set(core):
        handle_alter(core, args, now, out)
        return
    named = changes_with_full_names(dict(args.job), core.config.complexes)
    switches = {**args.job, "h": args.hold} if args.hold is not None else args.job  # -h is "h"
    refused = disallowed_changes(switches, core.config.global_conf)
    slots: list[Slot] = []
    for job, ref in _targets(core, args):
        if job is None:
            slots.append(Slot(ref=ref))
        elif refused:
            slots.append(Slot(answers=[error(refused, Status.EUNKNOWN)]))
        else:
            slots.append(Slot(ref=ref, job_id=job.job_id, spec=altered_spec(job.spec, named)))
    if args.users is not None and not slots:
        handle_alter(core, args, now, out)  # the core says there is no such job
        return
    _ask(core, Waiting(args, slots), now, out)


def _targets(core: Core, args: Alter) -> list[tuple[Job | None, str]]:
    """The jobs a qalter names, each with its reference; an unknown reference alone."""
    if args.users is not None:
        users = set(args.users)
        return [(j, str(j.job_id)) for j in core.jobs.owned_by(users)]
    found: list[tuple[Job | None, str]] = []
    for ref in args.job_ids:
        jobs = [(j, _job_ref(j, ids)) for j, ids in select_jobs(core, ref, args.identity.user)]
        found.extend(jobs or [(None, ref)])
    return found


def _job_ref(job: Job, ids: TaskIds | range | None) -> str:
    """One job of a reference, with the task range it named (``7`` or ``7.1-5:2``, or
    the ranges of a list, ``7.1,3``)."""
    if ids is None:
        return str(job.job_id)
    if isinstance(ids, TaskIds):
        return f"{job.job_id}.{ids}"
    return f"{job.job_id}.{ids.start}-{ids[-1] if ids else ids.start}:{ids.step}"


def _ask(core: Core, waiting: Waiting, now: float, out: Outcome) -> None:
    """Emit a VerifyJob for each job of the request, or carry it out if there is none."""
    if waiting.complete():
        _carry_out(core, waiting, now, out)
        return
    verifications = core.verifications
    request = verifications.new_id()
    who, verify = waiting.stimulus.identity, waiting.stimulus.verify
    for index, slot in enumerate(waiting.slots):
        if slot.spec is not None:
            token = verifications.new_id()
            verifications.tokens[token] = (request, index)
            spec = with_verify(slot.spec.to_dict(), verify)
            out.emit(VerifyJob(token, slot.job_id, who, spec, verify, request))
    verifications.requests[request] = waiting
    out.answered = False


@handler(JsvVerdict)
def handle_verdict(core: Core, args: JsvVerdict, now: float, out: Outcome) -> None:
    """The JSV's answer: for a job waiting for verification, or for a waiting request."""
    verifications = core.verifications
    out.answered = False
    asked = verifications.tokens.pop(args.token, None)
    if asked is None:
        return  # asked before the core was rebuilt: the request was failed then
    request, index = asked
    if request is None:
        late_verdict(core, index, args, now, out)
        return
    waiting: Waiting = verifications.requests[request]
    waiting.slots[index].verdict = args
    if not waiting.complete():
        return
    del verifications.requests[request]
    out.answered, out.request = True, request
    _carry_out(core, waiting, now, out)


def _carry_out(core: Core, waiting: Waiting, now: float, out: Outcome) -> None:
    stimulus = waiting.stimulus
    if isinstance(stimulus, Submit):
        _submit(core, stimulus, waiting.slots[0], now, out)
        return
    for slot in waiting.slots:
        part = Outcome()
        try:
            _alter(core, stimulus, slot, now, part)
        except CoreError as exc:
            part = Outcome(answers=[exc.to_answer()])
        out.merge(part)


def _submit(core: Core, args: Submit, slot: Slot, now: float, out: Outcome) -> None:
    verdict, spec = slot.verdict, slot.spec
    assert verdict is not None
    assert spec is not None
    text = refused_text(verdict.state, verdict.message)
    if verdict.state in ACCEPTED:
        job, verify = corrected(spec, verdict, args.verify)
        checked = replace(args, job=job, verify=verify)
        handle_submit(core, checked, now, out, job_id=slot.job_id)
    elif verdict.state == "REJECT_WAIT" and core.config.global_conf.jsv_reject_wait_retries > 0:
        handle_submit(core, replace(args, job=spec), now, out, job_id=slot.job_id, jsv_wait=text)
    else:
        out.answers.append(error(text, Status.EUNKNOWN))


def _alter(core: Core, args: Alter, slot: Slot, now: float, out: Outcome) -> None:
    """One job of a qalter, as the JSV left it: only what differs from the job is changed."""
    if slot.answers is not None:
        out.answers.extend(slot.answers)
        return
    verdict, spec = slot.verdict, slot.spec
    if spec is None:
        assert slot.ref is not None
        handle_alter(core, replace(args, job_ids=[slot.ref], users=None), now, out)
        return
    assert verdict is not None
    assert slot.job_id is not None
    assert slot.ref is not None
    if verdict.state not in ACCEPTED:
        out.answers.append(error(refused_text(verdict.state, verdict.message), Status.EUNKNOWN))
        return
    new, verify = corrected(spec, verdict, args.verify)
    job = core.jobs.get(slot.job_id)
    before = job.spec.to_dict() if job is not None else {}
    diff = {
        k: v
        for k, v in new.to_dict().items()
        if v is not None and (before.get(k) != v or k in args.job)
    }
    one = Alter(args.identity, [slot.ref], diff, verify, args.hold)
    handle_alter(core, one, now, out)


def _reverify(core: Core, timer: Timer, now: float, out: Outcome) -> None:
    """A job waiting for verification is due: ask the JSV again (later, without a JSV)."""
    job = core.jobs.get(timer.job_id)
    wait = job.verify_wait if job is not None else None
    if job is None or wait is None or wait.next_at > now:
        return  # stale: verified, gone, or waiting for a later try
    if not jsv_set(core):
        backoff = max(core.config.global_conf.jsv_reject_wait_backoff, 1.0)
        core.set_timer(now + backoff, REVERIFY, job.job_id, 0)
        return
    token = core.verifications.new_id()
    core.verifications.tokens[token] = (None, job.job_id)
    out.emit(VerifyJob(token, job.job_id, job.owner, job.spec.to_dict(), "n", None))


def check_questions(core: Core, waiting: set[int]) -> list[str]:
    """A waiting job has its next try's timer or a question out; every question out
    belongs to a waiting request, and every waiting request has one."""
    asked = core.verifications
    out = {slot for request, slot in asked.tokens.values() if request is None}
    timed = {t.job_id for t in core.timer_list() if t.kind == REVERIFY}
    problems = [
        f"job {i} waits for verification and will never be asked about"
        for i in sorted(waiting - timed - out)
    ]
    requests = {request for request, _ in asked.tokens.values() if request is not None}
    problems += [
        f"request {r} waits for the JSV but asked nothing"
        for r in sorted(set(asked.requests) - requests)
    ]
    problems += [
        f"a question of request {r}, which waits no more"
        for r in sorted(requests - set(asked.requests))
    ]
    return problems


HOOKS.timers[REVERIFY] = _reverify
