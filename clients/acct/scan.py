"""Streaming the accounting file through qacct's filters.

The file is read line by line and never held whole. Every record is checked
in the order Grid Engine's reader checks it, so a line too short to reach a
filter it fails is skipped, and one that ends before a field it needs is
reported (``error: ignoring invalid entry in line N``, N counting records,
not comment or blank lines). With ``-j N`` a line that does not hold
``:N:`` cannot be job N and is passed over before it is split.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fnmatch import fnmatchcase

from clients.acct import record as r
from clients.acct.groups import Grouper, GroupKey, Totals
from clients.acct.options import Options

SKIP, KEEP, INVALID = 0, 1, -1


def _enc(text: str | None) -> bytes | None:
    return None if text is None else text.encode()


class Matcher:
    """The filters of one qacct run, applied to a record's fields in Grid Engine's order."""

    def __init__(self, opts: Options, queue_patterns: list[str] | None = None) -> None:
        self.host = _enc(opts.host.lower() if opts.host is not None else None)
        self.queues = [p.encode() for p in queue_patterns] if queue_patterns else None
        self.group = _enc(opts.group)
        self.owner = _enc(opts.owner)
        self.by_job = "job" not in opts.flags and opts.job_wanted
        self.job_number = opts.job_number
        self.job_name = _enc(opts.job_name)
        self.account = _enc(opts.account)
        self.begin = opts.begin
        self.end = opts.end
        self.ran_only = opts.complexes is not None
        self.project = _enc(opts.project)
        self.department = _enc(opts.department)
        self.granted_pe = _enc(opts.granted_pe)
        self.slots = opts.slots
        self.tasks = opts.tasks if "job" not in opts.flags else None
        self.ar_number = opts.ar_number
        self.active = any(
            (self.host, self.queues, self.group, self.owner, self.by_job, self.account,
             self.begin is not None, self.end is not None, self.ran_only, self.project,
             self.department, self.granted_pe, self.slots > 0, self.tasks, self.ar_number > 0)
        )  # fmt: skip

    def _is_job(self, f: list[bytes]) -> bool:
        """``-j N``: job number N; ``-j name``: the job name matches the pattern."""
        if r.atol(f[r.JOB_NUMBER]) == self.job_number:
            return True
        return self.job_name is not None and fnmatchcase(f[r.JOB_NAME], self.job_name)

    def _head(self, f: list[bytes], n: int) -> int:
        """qname .. account: host, queue, group, owner, job and account filters."""
        if n < 2:
            return INVALID
        if self.host is not None and f[r.HOSTNAME].lower() != self.host:
            return SKIP
        if self.queues is not None:
            qi = f[r.QNAME] + b"@" + f[r.HOSTNAME]
            if not any(fnmatchcase(qi, p) for p in self.queues):
                return SKIP
        if n < 3:
            return INVALID
        if self.group is not None and f[r.GROUP] != self.group:
            return SKIP
        if n < 4:
            return INVALID
        if self.owner is not None and f[r.OWNER] != self.owner:
            return SKIP
        if n < 6:
            return INVALID
        if self.by_job and not self._is_job(f):
            return SKIP
        if n < 7:
            return INVALID
        if self.account is not None and f[r.ACCOUNT] != self.account:
            return SKIP
        return KEEP

    def _middle(self, f: list[bytes], n: int) -> int:
        """start_time .. department: the period, project and department filters."""
        if n < r.START + 1:
            return INVALID
        if self.ran_only or self.begin is not None or self.end is not None:
            start = r.atol(f[r.START])
            if (self.ran_only and start == 0) or (self.begin is not None and start < self.begin):
                return SKIP
            if self.end is not None and start > self.end:
                return SKIP
        if n < r.PROJECT + 1:
            return INVALID
        if self.project is not None and f[r.PROJECT] != self.project:
            return SKIP
        if n < r.DEPARTMENT + 1:
            return INVALID
        if self.department is not None and f[r.DEPARTMENT] != self.department:
            return SKIP
        return KEEP

    def _tail(self, f: list[bytes], n: int) -> int:
        """The optional fields: PE, slots, task and AR filters."""
        pe = f[r.GRANTED_PE] if n > r.GRANTED_PE else b"none"
        if self.granted_pe is not None and pe != self.granted_pe:
            return SKIP
        if self.slots > 0 and (r.atol(f[r.SLOTS]) if n > r.SLOTS else 0) != self.slots:
            return SKIP
        if self.tasks is not None and (r.atol(f[r.TASK]) if n > r.TASK else 0) not in self.tasks:
            return SKIP
        if self.ar_number > 0 and (r.atol(f[r.ARID]) if n > r.ARID else 0) != self.ar_number:
            return SKIP
        return KEEP

    def check(self, f: list[bytes]) -> int:
        """:data:`KEEP`, :data:`SKIP` or :data:`INVALID` for a normalised record."""
        n = len(f)
        verdict = self._head(f, n)
        if verdict == KEEP:
            verdict = self._middle(f, n)
        if verdict == KEEP:
            verdict = self._tail(f, n)
        return verdict


class Scan:
    """The result of reading an accounting file: totals, groups and whether a job matched."""

    def __init__(
        self,
        opts: Options,
        matcher: Matcher,
        on_job: Callable[[list[bytes]], None],
        on_invalid: Callable[[int], None],
        select: Callable[[list[bytes]], bool | None] | None = None,
    ) -> None:
        self.opts = opts
        self.matcher = matcher
        self.on_job = on_job
        self.on_invalid = on_invalid
        self.select = select
        self.totals: Totals = [0.0] * 7
        self.grouper = Grouper(opts.flags) if opts.grouped else None
        self.check = matcher.check if matcher.active else None
        self._rows: dict[GroupKey, Totals] | None = None
        self.show_jobs = opts.show_jobs
        self.found = False
        self.ignored = 0
        self.records = 0
        self.needle = self._needle(opts)

    @staticmethod
    def _needle(opts: Options) -> bytes | None:
        if "job" in opts.flags or not opts.job_number or opts.job_name is not None:
            return None
        return b":%d:" % opts.job_number

    def feed(self, lines: Iterable[bytes]) -> None:
        """Read every line of an accounting file."""
        opts = self.opts
        if self.matcher.active or self.select or opts.show_jobs or opts.grouped:
            self._feed_filtered(lines)
        else:
            self._feed_totals(lines)

    def _feed_filtered(self, lines: Iterable[bytes]) -> None:
        needle = self.needle
        for line in lines:
            if len(line) <= 1 or line[0] == 35:  # blank, or a "#" comment
                continue
            self.records += 1
            if needle is not None and needle not in line and line.count(b":", 0, 200) >= 5:
                continue
            self._record(r.normalise(line.rstrip(b"\n").split(b":")))

    def _feed_totals(self, lines: Iterable[bytes]) -> None:
        """No filter, no group, no job shown: only the totals, summed in one tight loop."""
        w = u = s = c = m = io = iow = 0.0
        records = self.records
        for line in lines:
            if len(line) <= 1 or line[0] == 35:
                continue
            records += 1
            f = line.split(b":")
            if len(f) == r.FULL:
                try:
                    values = (int(f[13]), float(f[14]), float(f[15]), float(f[36]),
                              float(f[37]), float(f[38]), float(f[40]))  # fmt: skip
                except ValueError:
                    pass
                else:
                    w += values[0]
                    u += values[1]
                    s += values[2]
                    c += values[3]
                    m += values[4]
                    io += values[5]
                    iow += values[6]
                    continue
            self.records = records
            self._record(r.normalise(line.rstrip(b"\n").split(b":")))
        self.records = records
        for i, value in enumerate((w, u, s, c, m, io, iow)):
            self.totals[i] += value

    def _record(self, f: list[bytes]) -> None:
        verdict = self.check(f) if self.check is not None else KEEP
        if verdict == SKIP:
            return
        if verdict == INVALID or len(f) < r.REQUIRED:
            self.on_invalid(self.records)
            return
        self.found = True
        if self.select is not None:
            chosen = self.select(f)
            if chosen is None:
                self.ignored += 1
                return
            if not chosen:
                return
        if self.show_jobs:
            self.on_job(f)
        self._add(f)

    def _add(self, f: list[bytes]) -> None:
        try:
            usage: tuple[float, ...] = (
                int(f[r.WALLCLOCK]), float(f[r.UTIME]), float(f[r.STIME]), float(f[r.CPU]),
                float(f[r.MEM]), float(f[r.IO]), float(f[r.IOW]),
            )  # fmt: skip
        except (ValueError, IndexError):
            usage = r.usage_of(f)
        if self.grouper is not None:
            self.grouper.add(f, usage)
            return
        totals = self.totals
        for i, value in enumerate(usage):
            totals[i] += value

    def finish(self) -> Scan:
        """Totals of a grouped scan are the sums of its rows."""
        if self.grouper is not None:
            self.totals = self.grouper.totals()
        return self

    @property
    def groups(self) -> dict[GroupKey, Totals]:
        """The grouped table's rows, by full key (empty when not grouped)."""
        if self._rows is None:
            self._rows = self.grouper.table_rows() if self.grouper is not None else {}
        return self._rows

    @property
    def hosts(self) -> dict[bytes, bytes]:
        """Host names as first seen, by their lower-case form."""
        return self.grouper.hosts if self.grouper is not None else {}
