"""qresub: a copy of a job, submitted as a new job (Grid Engine's sge_gdi_copy_job()).

Grid Engine's qmaster copies the job, clears what belongs to the original's
life (job_initialize_id_lists(): every task pending again, no hold), applies
the request (qresub's ``-h``, mod_job_attributes()), resets the job number and
hands the copy to sge_gdi_add_job(): the same checks as a submission, the
server JSV, a new number, the caller as owner, a new submission time. So here:
the copy becomes a :class:`~qmaster.core.stimuli.Submit` of the caller, routed
as qsub's is (:func:`qmaster.core.jsvflow.route_submit`); the JSV sees it as it
sees a new job. The copy keeps the rest of the specification: name, requests,
context, script, ``-hold_jid``, ``-w`` excepted (qalter.c sends SKIP_VERIFY).

Refused first, as sge_gdi_copy_job() refuses, with STATUS_EUNKNOWN: a job
that does not exist (a job word that is no number is job 0), and another
user's job unless the caller is a manager.
"""

from __future__ import annotations

from qmaster.core.holds import check_hold_change
from qmaster.core.jobs import parse_task_range
from qmaster.core.jsvflow import route_submit
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.registry import handler
from qmaster.core.stimuli import Resubmit, Submit
from qmaster.core.taskholds import HOLD_BITS, uniform
from qmaster.digits import atol_u32
from qmaster.model import Status, error


@handler(Resubmit)
def handle_resubmit(core: Core, args: Resubmit, now: float, out: Outcome) -> None:
    """Submit a copy of the job ``args.job_id`` for the caller."""
    head, dot, tasks = args.job_id.partition(".")
    number = atol_u32(head) or 0  # qalter.c: atol() of the word
    job = core.jobs.get(number)
    who = args.identity
    if job is None:
        out.answers.append(error(f'job "{number}" does not exist', Status.EUNKNOWN))
        return
    if who.user != job.owner.user and not core.is_manager(who):
        text = (
            f"job rejected: {who.user}@{who.host} is not allowed to resubmit jobs of user "
            f"{job.owner.user}"
        )
        out.answers.append(error(text, Status.EUNKNOWN))
        return
    hold = args.hold or None
    hold_tasks = parse_task_range(tasks).ids() if dot and hold else None
    if hold:  # mod_job_attributes(): who may set which hold (the copy's owner is the caller)
        check_hold_change(core, who, job, {}, uniform(job, hold))
    whole_u = hold is not None and "u" in hold and hold_tasks is None
    spec = job.spec.changed(user_hold=True if whole_u else None)
    letters = "".join(b for b in HOLD_BITS if hold and b in hold) or None
    route_submit(core, Submit(who, spec, "n", letters, hold_tasks), now, out)
