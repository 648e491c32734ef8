"""qacct: report and account for Grid Engine usage from the cell's accounting file.

Reads ``$SGE_ROOT/$SGE_CELL/common/accounting`` (or ``-f FILE``, e.g. a
simulation's output) as qacct(1) of Grid Engine 6.2u5 does: the total usage
table, grouped tables (``-o -g -P -D -q -h -pe -slots -ar``), the per-job
blocks of ``-j``, with Grid Engine's texts and exit codes. The file is
streamed, never loaded whole. ``-q`` with a host group and ``-l`` ask the
qmaster for the cell's configuration; everything else works without one.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from clients.acct import texts
from clients.acct.options import Options, Usage, parse_args
from clients.acct.record import JobRecord
from clients.acct.render import job_block
from clients.acct.scan import Matcher, Scan
from clients.acct.table import render_table
from clients.common.conventions import asks_for_version, show_version
from clients.common.errors import ClientError
from clients.common.pipes import closes_quietly

EXIT_OK, EXIT_ERROR = 0, 1
Write = Callable[[str], object]


def default_accounting(env: dict[str, str] | None = None) -> str:
    """The cell's accounting file: ``$SGE_ROOT/$SGE_CELL/common/accounting``."""
    from qmaster.cell import Cell

    return str(Cell.from_env(env).common / "accounting")


def _not_found(opts: Options) -> str:
    t = opts.tasks
    if opts.job_number:
        if t is not None:
            return texts.TASKS_ID_NOT_FOUND.format(opts.job_number, t.start, t.end, t.step)
        return texts.JOB_ID_NOT_FOUND.format(opts.job_number)
    if t is not None:
        return texts.TASKS_NAME_NOT_FOUND.format(opts.job_name, t.start, t.end, t.step)
    return texts.JOB_NAME_NOT_FOUND.format(opts.job_name)


class Run:
    """One qacct invocation: its options, its output streams and its scan."""

    def __init__(self, opts: Options, out: Write, err: Write) -> None:
        self.opts = opts
        self.out = out
        self.err = err

    def _show(self, fields: list[bytes]) -> None:
        self.out(job_block(JobRecord.from_fields(fields)))

    def _invalid(self, record: int) -> None:
        self.err(f"error: {texts.INVALID_ENTRY.format(record)}\n")

    def scan(self, path: str) -> Scan:
        """Stream the accounting file through the filters."""
        from clients.acct.cellinfo import queue_patterns
        from clients.acct.resources import resource_selector

        opts = self.opts
        matcher = Matcher(opts, queue_patterns(opts.queue_refs))
        select = resource_selector(opts.complexes) if opts.complexes is not None else None
        scan = Scan(opts, matcher, self._show, self._invalid, select)
        with open(path, "rb", buffering=1 << 20) as stream:
            scan.feed(stream)
        return scan.finish()

    def finish(self, scan: Scan) -> int:
        """Grid Engine's end: not-found errors, the ``-t`` complaint or the table."""
        opts = self.opts
        if scan.ignored:
            self.err(f"warning: {texts.IGNORED_JOBS.format(scan.ignored)}\n")
            self.out("\n")
        if opts.job_wanted:
            if not scan.found:
                self.err(f"error: {_not_found(opts)}\n")
                return EXIT_ERROR
            return EXIT_OK
        if opts.tasks is not None:
            self.err(f"error: {texts.T_NEEDS_J}\n")
            self.err(texts.usage_text())
            return EXIT_ERROR
        self.out(render_table(opts, scan))
        return EXIT_OK


def run(argv: Sequence[str], out: Write, err: Write) -> int:
    """qacct with ``argv``; output through ``out``/``err``; returns the exit code."""
    try:
        opts = parse_args(list(argv))
    except Usage as usage:
        if usage.to_stdout:
            out(texts.usage_text())
            return EXIT_OK
        if usage.message:
            err(usage.message + "\n")
        err(texts.usage_text())
        return EXIT_ERROR
    path = opts.acct_file if opts.acct_file is not None else default_accounting()
    try:
        os.stat(path)
    except OSError as exc:
        err(f"{path}: {exc.strerror}\n")
        out(texts.NO_JOBS + "\n")
        return EXIT_ERROR
    job = Run(opts, out, err)
    try:
        scan = job.scan(path)
    except Usage:
        err(texts.usage_text())
        return EXIT_ERROR
    except ClientError as exc:
        err(exc.message.rstrip("\n") + "\n")
        return exc.exit_code
    except OSError:
        err(f"error: {texts.UNABLE_TO_OPEN.format(path)}\n")
        out(texts.NO_JOBS + "\n")
        return EXIT_ERROR
    return job.finish(scan)


@closes_quietly
def main(argv: Sequence[str] | None = None) -> int:
    """The ``qacct`` command."""
    args = sys.argv[1:] if argv is None else list(argv)
    if asks_for_version(args):
        return show_version()
    return run(args, sys.stdout.write, sys.stderr.write)


if __name__ == "__main__":
    sys.exit(main())
