"""qstat: show jobs (and with ``-f`` the queue instances) as Grid Engine does.

Sends ``job_list`` or, with ``-j``, ``job_detail``, and renders the reply with
the pure renderers in :mod:`clients.qstat_render`: Grid Engine's text layouts,
``-xml`` (its ``job_info`` shape) or ``-json`` (ours). An option's words run to
the next option, as in Grid Engine (``qstat -q a b`` is ``-q a,b``;
:mod:`clients.common.qstat_words`).
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import click

from clients.common.errors import ClientError
from clients.common.output import EXIT_ERROR, EXIT_OK, err, exit_code, print_answers
from clients.common.pipes import closes_quietly
from clients.common.qstat_usage import qstat_usage
from clients.common.qstat_words import spread
from clients.common.shell import GeCommand, Transport, default_transport, transport_of
from clients.qstat_render.cluster import render_cluster
from clients.qstat_render.columns import Layout
from clients.qstat_render.detail import not_found, render_details
from clients.qstat_render.detail_xml import (
    render_details_xml,
    render_summary_xml,
    render_unknown_xml,
)
from clients.qstat_render.jsondoc import (
    render_cluster_json,
    render_details_json,
    render_json,
    render_summary_json,
)
from clients.qstat_render.listing import render_full, render_full_listing, render_list
from clients.qstat_render.story import render_details_with_story
from clients.qstat_render.stream import ListingWriter
from clients.qstat_render.summary import render_summary
from clients.qstat_render.text import render_jobs
from clients.qstat_render.xml import render_cluster_xml, render_xml
from qmaster.gdi.client import Connection, GdiError
from qmaster.qstat_args import parse_explain, parse_group, parse_queue_states
from qmaster.qstat_wire import expand
from qmaster.state_filter import WRONG_ARGUMENT, parse_state_filter

QSTAT_USAGE = qstat_usage("qstat")


#: rows per frame of a streamed listing: big enough to keep frames few, small enough to print
#: the first lines while the qmaster works out the rest
CHUNK_ROWS = 5000


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


def show_jobs(data: dict[str, Any], *, full: bool, fmt: str, layout: Layout | None = None) -> str:
    """Render a ``job_list`` reply in the chosen format."""
    rows = data.get("jobs") or []
    queues = (data.get("queues") or []) if full else None
    if "cluster_queues" in data:
        return show_cluster(data["cluster_queues"], fmt, bool(layout and layout.ext))
    if fmt == "xml":
        return render_xml(rows, queues)
    if fmt == "json":
        return render_json(rows, queues)
    if layout is not None:
        if full:
            return render_full_listing(queues or [], rows, replace(layout, full=True))
        return render_list(rows, layout)
    return render_full(queues or [], rows) if full else render_jobs(rows)


def show_cluster(cqueues: list[dict[str, Any]], fmt: str, ext: bool) -> str:
    """Render ``-g c``."""
    if fmt == "xml":
        return render_cluster_xml(cqueues, ext)
    if fmt == "json":
        return render_cluster_json(cqueues)
    return render_cluster(cqueues, ext)


def _layout(opts: dict[str, Any], group: str) -> Layout | None:
    """The optional columns asked for, or None for the plain layouts."""
    tasks = bool(opts["tasks"])
    lay = Layout(
        ext=bool(opts["ext"]),
        pri=bool(opts["pri"]),
        urg=bool(opts["urg"]),
        tasks=tasks,
        master=tasks or "t" in group,
    )
    plain = lay == Layout() and not opts["requirements"]
    has_extras = opts["queue_resources"] is not None or opts["explain"]
    return None if plain and not has_extras else lay


def _last_words(opts: dict[str, Any]) -> None:
    """``-s``, ``-qs``, ``-explain``: each word is read in turn and checked, the last counts."""
    for key in ("states", "queue_states", "explain"):
        *earlier, last = opts[key] or (None,)
        for word in earlier:
            if key == "states":
                _states(word)
            else:
                _check_queue_args("", {"explain": None, "queue_states": None, key: word})
        opts[key] = last


def _check_queue_args(group: str, opts: dict[str, Any]) -> None:
    """``-g``, ``-explain`` and ``-qs`` as Grid Engine's qstat checks them before asking."""
    try:
        parse_group(group)
        if opts["explain"] is not None:
            parse_explain(opts["explain"])
        if opts["queue_states"] is not None:
            parse_queue_states(opts["queue_states"])
    except ValueError as exc:
        raise ClientError(str(exc)) from None


def _list_args(opts: dict[str, Any], full: bool) -> dict[str, Any]:
    group = "".join(opts["group"]) + ("t" if opts["tasks"] else "")
    columns = [c for c in ("ext", "pri", "urg") if opts[c]]
    extras = {
        "columns": columns,
        "requirements": bool(opts["requirements"]),
        "group": group,
        "queue_resources": _list(opts["queue_resources"]),
        "queues": _list(opts["queues"]),
        "resources": _list(opts["resources"]),
        "pes": _list(opts["pes"]),
        "queue_users": _list(opts["queue_users"]),
        "queue_states": opts["queue_states"],
        "no_empty": bool(opts["no_empty"]),
        "explain": opts["explain"],
    }
    # only what the options asked for travels; the qmaster's defaults stand for the rest
    asked = {k: v for k, v in extras.items() if v not in (None, False, "", [])}
    if opts["queue_resources"] is not None:
        asked["queue_resources"] = extras["queue_resources"] or []
    return {"users": _users(opts["users"]), "states": _states(opts["states"]), "full": full} | asked


def _list(values: Sequence[str] | str | None) -> list[str] | None:
    if values is None or (not isinstance(values, str) and not values):
        return None
    items = [values] if isinstance(values, str) else list(values)
    return [n for v in items for n in v.split(",") if n]


def show_summary(summary: dict[str, Any], fmt: str) -> str:
    """Render the scheduler's messages of ``qstat -j`` without a job list."""
    if fmt == "xml":
        return render_summary_xml(summary)
    if fmt == "json":
        return render_summary_json(summary)
    return render_summary(summary)


def show_details(
    data: dict[str, Any], fmt: str, binding: bool = False, story: bool = False
) -> tuple[str, int]:
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
    if story:
        return render_details_with_story(details, binding=binding), EXIT_OK
    return render_details(details, binding=binding), EXIT_OK


def _detail_args(opts: dict[str, Any], fmt: str) -> dict[str, Any]:
    """``job_detail``'s arguments; ``-story`` (a minige addition) needs a job list, in text
    or ``-json``."""
    ids = [i for value in opts["job_ids"] for i in value.split(",") if i]
    if not opts["story"]:
        return {"job_ids": ids or None}
    if not ids:
        raise ClientError("error: -story needs -j with a job_identifier_list")
    if fmt == "xml":
        raise ClientError("error: -story cannot be combined with -xml")
    return {"job_ids": ids, "story": True}


def _following(conn: Connection, data: dict[str, Any]) -> Iterator[list[Any]]:
    """The rows of the frames after ``data``, one frame at a time.

    A thread reads the frames as fast as the qmaster sends them, so a slow reader of
    qstat's output (``qstat | less``) never holds the qmaster's side of the stream.
    """
    if not data.get("more"):
        return
    frames: queue.SimpleQueue[dict[str, Any] | BaseException | None] = queue.SimpleQueue()

    def read() -> None:
        try:
            more = True
            while more:
                reply = conn.receive()
                if reply is None:
                    raise GdiError("qmaster closed the connection in the middle of the job list")
                frame = reply.data or {}
                frames.put(frame)
                more = bool(frame.get("more"))
        except BaseException as exc:  # handed over to the printing side
            frames.put(exc)
            return
        frames.put(None)

    threading.Thread(target=read, name="qstat-frames", daemon=True).start()
    while (frame := frames.get()) is not None:
        if isinstance(frame, BaseException):
            raise frame
        yield frame.get("job_rows") or []


def stream_listing(args: dict[str, Any], *, fmt: str, full: bool, layout: Layout | None) -> int:
    """``job_list`` from the cell's qmaster in frames of compact rows, each printed as it
    arrives (``-json`` and ``-g c`` print once all are in)."""
    wire = {**args, "compact": True, "chunk": CHUNK_ROWS, "running_first": fmt != "json"}
    with Connection() as conn:
        reply = conn.call("job_list", wire)
        if not reply.ok:
            print_answers(reply.answers)
            return exit_code(reply.answers)
        data = reply.data or {}
        if data.get("no_queues_after"):
            err(f"no queues remaining after {data['no_queues_after']} queue selection")
        head = [expand(r) for r in data.get("job_rows") or []]
        if fmt == "json" or "cluster_queues" in data:
            rows = head + [expand(r) for batch in _following(conn, data) for r in batch]
            sys.stdout.write(show_jobs({**data, "jobs": rows}, full=full, fmt=fmt, layout=layout))
            return EXIT_OK
        queues = (data.get("queues") or []) if full else None
        writer = ListingWriter(sys.stdout.write, fmt=fmt, full=full, layout=layout, queues=queues)
        writer.head(head)
        for batch in _following(conn, data):
            writer.compact_rows(batch)
        writer.end()
    return EXIT_OK


@click.command("qstat", cls=GeCommand, usage_text=QSTAT_USAGE)
@click.option("-cb", "binding", is_flag=True)
@click.option("-f", "full", is_flag=True)
@click.option("-j", "job_ids", multiple=True, is_flag=False, flag_value="")
@click.option("-u", "users", multiple=True)
@click.option("-s", "states", multiple=True)
@click.option("-xml", "xml", is_flag=True)
@click.option("-ext", "ext", is_flag=True)
@click.option("-pri", "pri", is_flag=True)
@click.option("-urg", "urg", is_flag=True)
@click.option("-r", "requirements", is_flag=True)
@click.option("-t", "tasks", is_flag=True)
@click.option("-g", "group", multiple=True)
@click.option("-F", "queue_resources", is_flag=False, flag_value="")
@click.option("-q", "queues", multiple=True)
@click.option("-l", "resources", multiple=True)
@click.option("-pe", "pes", multiple=True)
@click.option("-U", "queue_users", multiple=True)
@click.option("-qs", "queue_states", multiple=True)
@click.option("-ne", "no_empty", is_flag=True)
@click.option("-explain", "explain", multiple=True)
@click.option("-json", "as_json", is_flag=True)
@click.option("-story", "story", is_flag=True)
@click.pass_context
def qstat_command(ctx: click.Context, /, **opts: Any) -> int:
    """Show jobs."""
    _last_words(opts)
    fmt = "json" if opts["as_json"] else "xml" if opts["xml"] else "text"
    full = bool(opts["full"])
    transport = transport_of(ctx)
    if opts["story"] and not opts["job_ids"]:
        raise ClientError("error: -story needs -j with a job_identifier_list")
    if opts["job_ids"]:
        reply = transport("job_detail", _detail_args(opts, fmt))
        if not reply.ok:
            print_answers(reply.answers)
            return exit_code(reply.answers)
        data = reply.data or {}
        if "summary" in data:
            text, code = show_summary(data["summary"], fmt), EXIT_OK
        else:
            text, code = show_details(data, fmt, bool(opts["binding"]), bool(opts["story"]))
    else:
        group = "".join(opts["group"])
        _check_queue_args(group, opts)
        full = full or bool(opts["explain"] or opts["queue_states"])
        full = full or opts["queue_resources"] is not None
        layout = _layout(opts, group)
        if transport is default_transport:
            return stream_listing(_list_args(opts, full), fmt=fmt, full=full, layout=layout)
        reply = transport("job_list", _list_args(opts, full))
        if not reply.ok:
            print_answers(reply.answers)
            return exit_code(reply.answers)
        data = reply.data or {}
        if data.get("no_queues_after"):
            err(f"no queues remaining after {data['no_queues_after']} queue selection")
        text, code = show_jobs(data, full=full, fmt=fmt, layout=layout), EXIT_OK
    sys.stdout.write(text)
    return code


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qstat with ``argv``; return the exit code."""
    assert isinstance(qstat_command, GeCommand)
    return qstat_command.run(spread(sys.argv[1:] if argv is None else argv), transport)
