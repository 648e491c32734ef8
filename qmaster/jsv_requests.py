"""The qmaster's requests that pass the server JSV first: submissions and alterations.

The daemon routes ``submit`` and ``alter`` here while a ``jsv_url`` is set;
the JSV's answer is then handed to the core as an ordinary request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from qmaster.core import Core, Identity, Request
from qmaster.core.control import select_jobs
from qmaster.gdi.answers import Answer, Status, error
from qmaster.gdi.messages import AlterArgs, JobChanges, JobSpec, SubmitArgs
from qmaster.gdi.server import Reply, error_reply
from qmaster.jsv.gate import JsvGate
from qmaster.jsv.wirespec import full_resource_names

Run = Callable[[Request], Awaitable[Reply]]


async def submit_verified(
    core: Core, jsv: JsvGate, run: Run, who: Identity, args: SubmitArgs
) -> Reply:
    """Submit through the server JSV: verify, then hand what it accepted to the core."""
    # a verification-only request (-w v|p) submits nothing and burns no id
    job_id = core.allocate_job_id() if args.verify not in ("v", "p") else None
    spec = full_resource_names(args.job.model_dump(exclude_none=True), core.config.complexes)
    result = await jsv.submission(who, JobSpec.model_validate(spec), job_id, args.verify)
    if result.error is not None or result.job is None:
        return error_reply(result.error or "JSV rejected job", Status.EUNKNOWN, close=False)
    checked = SubmitArgs(job=result.job, verify=result.verify)
    request = Request(who, "submit", checked, job_id=job_id, jsv_wait=result.wait)
    return await run(request)


async def alter_verified(
    core: Core, jsv: JsvGate, run: Run, who: Identity, args: AlterArgs
) -> Reply:
    """qalter through the server JSV: each named job's change verified, then altered."""
    changes = args.job.model_dump(exclude_none=True, exclude_unset=True)

    def named(spec: dict[str, Any]) -> dict[str, Any]:
        return full_resource_names(spec, core.config.complexes)

    answers: list[Answer] = []
    for ref in args.job_ids:
        jobs = [j for j, _ in select_jobs(core, ref, who.user)]
        if not jobs:  # the core says so in its words
            one = args.model_copy(update={"job_ids": [ref]})
            answers.extend((await run(Request(who, "alter", one))).answers)
        for job in jobs:
            result = await jsv.alteration(
                who, job.spec.to_dict(), named(changes), job.job_id, args.verify
            )
            if result.error is not None or result.job is None:
                answers.append(error(result.error or "JSV rejected job", Status.EUNKNOWN))
                continue
            new, old = result.job.model_dump(exclude_none=True), job.spec.to_dict()
            diff = {k: v for k, v in new.items() if old.get(k) != v or k in changes}
            one = AlterArgs(
                job_ids=[str(job.job_id)],
                job=JobChanges.model_validate(diff),
                verify=result.verify,
                hold=args.hold,
            )
            answers.extend((await run(Request(who, "alter", one))).answers)
    return Reply(answers)
