"""qstat: show jobs (and with ``-f`` the queue instances) as Grid Engine does.

Sends ``job_list`` or, with ``-j``, ``job_detail``, and renders the reply with
the pure renderers in :mod:`clients.qstat_render`: Grid Engine's text layouts,
``-xml`` (its ``job_info`` shape) or ``-json`` (ours).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import click

from clients.common.errors import ClientError
from clients.common.output import EXIT_ERROR, EXIT_OK, err, exit_code, print_answers
from clients.common.shell import GeCommand, Transport, transport_of
from clients.qstat_render.detail import not_found, render_details
from clients.qstat_render.detail_xml import (
    render_details_xml,
    render_summary_xml,
    render_unknown_xml,
)
from clients.qstat_render.jsondoc import render_details_json, render_json, render_summary_json
from clients.qstat_render.summary import render_summary
from clients.qstat_render.text import render_full, render_jobs
from clients.qstat_render.xml import render_xml
from qmaster.state_filter import WRONG_ARGUMENT, parse_state_filter

QSTAT_USAGE = """\
usage: qstat [options]
        [-cb]                             show core binding information (with -j)
        [-f]                              full output
        [-help]                           print this help
        [-j [job_identifier_list]]        show scheduler job information
        [-json]                           display the information as a JSON document
        [-s {p|r|s|z|hu|ho|hs|hd|hj|ha|h|a}] show pending, running, suspended, zombie jobs,
                                          jobs with a user/operator/system/array-dependency hold,
                                          jobs with a start time in future or any combination only.
                                          h is an abbreviation for huhohshdhjha
                                          a is an abbreviation for prsh
        [-u user_list]                    view only jobs of this user (default: your own; '*' for all)
        [-xml]                            display the information in XML-Format

job_identifier_list       {job_id|job_name|reg_exp}[,{job_id|job_name|reg_exp},...]
user_list                 user|pattern[,user|pattern,...]
"""


def _users(values: Sequence[str]) -> list[str] | None:
    """The -u filter; without -u only the caller's own jobs, as Grid Engine 6.2 shows them."""
    names = [n for value in values for n in value.split(",") if n]
    if not names:
        return [_me()]
    return None if "*" in names else names


def _me() -> str:
    import pwd

    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return str(os.getuid())


def _states(value: str | None) -> str | None:
    """The ``-s`` argument, checked as Grid Engine checks it."""
    if value is not None:
        try:
            parse_state_filter(value)
        except ValueError:
            raise ClientError(WRONG_ARGUMENT, show_usage=True) from None
    return value


def show_jobs(data: dict[str, Any], *, full: bool, fmt: str) -> str:
    """Render a ``job_list`` reply in the chosen format."""
    rows = data.get("jobs") or []
    queues = (data.get("queues") or []) if full else None
    if fmt == "xml":
        return render_xml(rows, queues)
    if fmt == "json":
        return render_json(rows, queues)
    return render_full(queues or [], rows) if full else render_jobs(rows)


def show_summary(summary: dict[str, Any], fmt: str) -> str:
    """Render the scheduler's messages of ``qstat -j`` without a job list."""
    if fmt == "xml":
        return render_summary_xml(summary)
    if fmt == "json":
        return render_summary_json(summary)
    return render_summary(summary)


def show_details(data: dict[str, Any], fmt: str, binding: bool = False) -> tuple[str, int]:
    """Render a ``job_detail`` reply; the exit code is 1 when no job was found."""
    details, missing = data.get("jobs") or [], data.get("missing") or []
    if fmt == "json":
        return render_details_json(details, missing), EXIT_OK if details else EXIT_ERROR
    if fmt == "xml":
        if not details:
            return render_unknown_xml(missing), EXIT_OK
        return render_details_xml(details, data.get("global_messages") or [], binding), EXIT_OK
    if not details:
        err(not_found(missing).rstrip("\n"))
        return "", EXIT_ERROR
    return render_details(details, binding=binding), EXIT_OK


@click.command("qstat", cls=GeCommand, usage_text=QSTAT_USAGE)
@click.option("-cb", "binding", is_flag=True)
@click.option("-f", "full", is_flag=True)
@click.option("-j", "job_ids", multiple=True, is_flag=False, flag_value="")
@click.option("-u", "users", multiple=True)
@click.option("-s", "states")
@click.option("-xml", "xml", is_flag=True)
@click.option("-json", "as_json", is_flag=True)
@click.pass_context
def qstat_command(ctx: click.Context, /, **opts: Any) -> int:
    """Show jobs."""
    fmt = "json" if opts["as_json"] else "xml" if opts["xml"] else "text"
    full = bool(opts["full"])
    transport = transport_of(ctx)
    if opts["job_ids"]:
        ids = [i for value in opts["job_ids"] for i in value.split(",") if i]
        reply = transport("job_detail", {"job_ids": ids or None})
        if not reply.ok:
            print_answers(reply.answers)
            return exit_code(reply.answers)
        data = reply.data or {}
        if "summary" in data:
            text, code = show_summary(data["summary"], fmt), EXIT_OK
        else:
            text, code = show_details(data, fmt, bool(opts["binding"]))
    else:
        args = {"users": _users(opts["users"]), "states": _states(opts["states"]), "full": full}
        reply = transport("job_list", args)
        if not reply.ok:
            print_answers(reply.answers)
            return exit_code(reply.answers)
        text, code = show_jobs(reply.data or {}, full=full, fmt=fmt), EXIT_OK
    sys.stdout.write(text)
    return code


def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qstat with ``argv``; return the exit code."""
    assert isinstance(qstat_command, GeCommand)
    return qstat_command.run(sys.argv[1:] if argv is None else argv, transport)
