"""Run the client JSVs of a qsub or qalter request (jsv(1)), before anything is sent.

Each JSV sees the previous one's corrections; the first rejection ends the
chain and the submission with the JSV's message. LOG and RESULT messages are
shown to the submitter unless ``-terse`` was given.
"""

from __future__ import annotations

import grp
import os
import pwd

from clients.common.errors import ClientError
from clients.common.output import out
from clients.submit.build import SubmitRequest


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
    spec = request.spec
    outcome = run_client_jsvs(
        {k: v for k, v in spec.items() if k not in ("CMDNAME", "CMDARGS")},
        request.jsv_scripts,
        user=user,
        group=group,
        cmdname=str(spec.get("CMDNAME", "")),
        cmdargs=list(spec.get("CMDARGS", [])),
        client=client,
    )
    if not request.terse:
        for line in outcome.messages:
            out(line)
    if not outcome.accepted:
        raise ClientError(f"{rejected_prefix}{outcome.message}.\nExiting.")
    if client == "qalter":
        outcome.spec.pop("CMDNAME", None)
        if not outcome.spec.get("CMDARGS"):
            outcome.spec.pop("CMDARGS", None)
    request.spec = outcome.spec
