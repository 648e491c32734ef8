"""Run the client JSVs of a qsub or qalter request (jsv(1)), before anything is sent.

Each JSV sees the previous one's corrections; the first rejection ends the
chain and the submission with the JSV's message. LOG and RESULT messages are
shown to the submitter unless ``-terse`` was given. The ``-w`` mode travels
as parameter ``w`` (sent when it is not ``n``, as Grid Engine does) and a JSV
may change it. What the JSVs leave is checked as typed options are
(:func:`qmaster.gdi.specvalues.check_spec`): a JSV's bad value is refused
with the very text qsub gives when that value is typed.
"""

from __future__ import annotations

import grp
import os
import pwd
import time

from clients.common.errors import ClientError
from clients.common.output import out
from clients.submit.build import SubmitRequest
from qmaster.gdi.specvalues import check_spec


def user_and_group() -> tuple[str, str]:
    """The caller's user and group names (the ids when they have none)."""
    try:
        user = pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        user = str(os.getuid())
    try:
        group = grp.getgrgid(os.getgid()).gr_name
    except KeyError:
        group = str(os.getgid())
    return user, group


def apply_client_jsvs(request: SubmitRequest, client: str, *, rejected_prefix: str) -> None:
    """Replace ``request.spec`` with what the client JSVs made of it, or raise."""
    if not request.jsv_scripts:
        return
    from qmaster.jsv.client import run_client_jsvs

    user, group = user_and_group()
    spec = {k: v for k, v in request.spec.items() if k not in ("CMDNAME", "CMDARGS")}
    if request.verify != "n":
        spec["w"] = request.verify
    outcome = run_client_jsvs(
        spec,
        request.jsv_scripts,
        user=user,
        group=group,
        cmdname=str(request.spec.get("CMDNAME", "")),
        cmdargs=list(request.spec.get("CMDARGS", [])),
        client=client,
    )
    if not request.terse:
        for line in outcome.messages:
            out(line)
    if outcome.invalid:
        raise ClientError(outcome.message)
    if not outcome.accepted:
        raise ClientError(f"{rejected_prefix}{outcome.message}.\nExiting.")
    result = check_spec(outcome.spec, time.localtime().tm_year, complete=client != "qalter")
    request.verify = str(result.pop("w", "n"))
    if client == "qalter":
        result.pop("CMDNAME", None)
        if not result.get("CMDARGS"):
            result.pop("CMDARGS", None)
    request.spec = result
