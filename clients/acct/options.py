"""qacct's command line, read as Grid Engine 6.2u5's qacct reads it.

Options with an optional argument (``-o [owner]``, ``-j [job]``...) take the
next word unless it starts with ``-``; a value filters, a bare option groups
(or, for ``-j``, lists every job). ``-help`` prints the usage on stdout and
ends at once; any word qacct does not know, a missing value or a bad date
prints the usage on stderr and exits 1. The times: ``-b``/``-e`` bound the
jobs' start times, ``-d`` counts days from ``-b``, back from ``-e``, or back
from now.
"""

from __future__ import annotations

import grp
import re
import time
from dataclasses import dataclass, field

from clients.acct import texts
from clients.common.errors import ClientError
from clients.submit.dates import parse_date_time

_UINT = re.compile(r"\s*\+?(\d+)")
_LONG = re.compile(r"\s*([+-]?\d+)")
_RANGE = re.compile(r"(\d+)(?:-(\d+)(?::(\d+))?)?")
_DAY = 24 * 3600
GROUPING = frozenset(
    {"host", "queue", "group", "owner", "project", "department", "granted_pe", "slots", "ar"}
)
_FLAGS = {"-o": "owner", "-P": "project", "-D": "department", "-pe": "granted_pe"}


class Usage(Exception):
    """qacct ends with its usage: on stdout with 0 (``-help``), else on stderr with 1.

    ``message`` (if any) is printed on stderr before the usage.
    """

    def __init__(self, *, to_stdout: bool = False, message: str | None = None) -> None:
        super().__init__(message or "usage")
        self.to_stdout = to_stdout
        self.message = message


@dataclass(frozen=True, slots=True)
class TaskRange:
    """The ``-t`` range: the first range of the list, as Grid Engine uses it."""

    start: int
    end: int
    step: int

    def __contains__(self, task: object) -> bool:
        return (
            isinstance(task, int)
            and self.start <= task <= self.end
            and (task - self.start) % self.step == 0
        )


@dataclass(slots=True)
class Options:
    """What the command line asked for (``None``: not given)."""

    owner: str | None = None
    group: str | None = None
    host: str | None = None
    project: str | None = None
    department: str | None = None
    granted_pe: str | None = None
    account: str | None = None
    slots: int = 0
    ar_number: int = 0
    job_number: int = 0
    job_name: str | None = None
    tasks: TaskRange | None = None
    queue_refs: list[str] = field(default_factory=list)
    complexes: str | None = None
    acct_file: str | None = None
    begin: int | None = None
    end: int | None = None
    days: int | None = None
    flags: set[str] = field(default_factory=set)

    @property
    def job_wanted(self) -> bool:
        """A job number or name was given: show only its blocks."""
        return bool(self.job_number) or self.job_name is not None

    @property
    def show_jobs(self) -> bool:
        """Print the per-job blocks (``-j`` with or without an argument)."""
        return "job" in self.flags or self.job_wanted

    @property
    def grouped(self) -> bool:
        """A grouping option without a value: one table row per group."""
        return bool(self.flags & GROUPING)


def _next_value(argv: list[str], i: int) -> str | None:
    """The word after ``argv[i]`` when it is a value (does not start with ``-``)."""
    if i + 1 < len(argv) and not argv[i + 1].startswith("-"):
        return argv[i + 1]
    return None


def _required(argv: list[str], i: int) -> str:
    if i + 1 >= len(argv):
        raise Usage()
    return argv[i + 1]


def c_uint(text: str) -> int | None:
    """C's ``sscanf("%u")``: the leading number, or ``None`` when there is none."""
    m = _UINT.match(text)
    return int(m.group(1)) if m else None


def c_long(text: str) -> int:
    """C's ``atol``: the leading number, 0 when there is none."""
    m = _LONG.match(text)
    return int(m.group(1)) if m else 0


def group_name(text: str) -> str:
    """``-g``: a numeric gid names its group when the system knows it."""
    gid = c_uint(text)
    if gid is None:
        return text
    try:
        return grp.getgrgid(gid).gr_name
    except (KeyError, OverflowError):
        return text


def parse_tasks(text: str) -> TaskRange:
    """``-t n[-m[:s]][,...]``: Grid Engine keeps the first range of the list."""
    ranges: list[TaskRange] = []
    for part in text.split(","):
        m = _RANGE.fullmatch(part.strip())
        if not m:
            raise Usage(message=texts.T_INVALID_RANGES.format(text))
        start = int(m.group(1))
        end = int(m.group(2)) if m.group(2) else start
        step = int(m.group(3)) if m.group(3) else 1
        if start < 1 or end < start or step < 1:
            raise Usage(message=texts.T_INVALID_RANGES.format(text))
        ranges.append(TaskRange(start, end, step))
    return ranges[0]


def parse_time(text: str) -> int:
    """``-b``/``-e``: ``[[CC]YY]MMDDhhmm[.SS]`` in local time; a bad one ends with the usage."""
    try:
        normal = parse_date_time(text, time.localtime().tm_year, "-b")
        parsed = time.strptime(normal, "%Y%m%d%H%M.%S")
        return int(time.mktime(parsed))
    except (ClientError, ValueError, OverflowError):
        raise Usage() from None


def _take_optional(opts: Options, argv: list[str], i: int, name: str) -> int:
    value = _next_value(argv, i)
    if value is None:
        opts.flags.add(name)
        return i
    setattr(opts, name, value)
    return i + 1


def _take_job(opts: Options, argv: list[str], i: int) -> int:
    value = _next_value(argv, i)
    if value is None:
        opts.flags.add("job")
        return i
    number = c_uint(value)
    if number is None:
        opts.job_number, opts.job_name = 0, value
    else:
        opts.job_number = number
    return i + 1


def _take_ar(opts: Options, argv: list[str], i: int) -> int:
    value = _next_value(argv, i)
    if value is None:
        opts.flags.add("ar")
        return i
    number = c_uint(value)
    if number is None:
        raise Usage(message=texts.AR_MUST_BE_UINT)
    opts.ar_number = number
    return i + 1


def _take_queue(opts: Options, argv: list[str], i: int) -> int:
    opts.flags.add("queue")
    value = _next_value(argv, i)
    if value is None:
        return i
    opts.flags.add("host")  # Grid Engine groups by host too when a queue is named
    opts.queue_refs.append(value)
    return i + 1


def _take_value(opts: Options, argv: list[str], i: int, opt: str) -> int:
    """The options whose value is required (``-b -e -d -l -f -A -t``)."""
    if opt == "-t":
        if i + 1 >= len(argv) or argv[i + 1].startswith("-"):
            raise Usage(message=texts.T_NEEDS_RANGES)
        opts.tasks = parse_tasks(argv[i + 1])
        return i + 1
    value = _required(argv, i)
    if opt in ("-b", "-e"):
        setattr(opts, "begin" if opt == "-b" else "end", parse_time(value))
    elif opt == "-d":
        days = c_uint(value)
        if days is None:
            raise Usage()
        opts.days = days
    elif opt == "-l":
        opts.complexes = value
    elif opt == "-f":
        opts.acct_file = value
    else:
        opts.account = value
    return i + 1


def _take_other(opts: Options, argv: list[str], i: int, opt: str) -> int:
    if opt == "-g":
        value = _next_value(argv, i)
        if value is None:
            opts.flags.add("group")
            return i
        opts.group = group_name(value)
        return i + 1
    if opt == "-h":
        return _take_optional(opts, argv, i, "host")
    value = _next_value(argv, i)  # -slots
    if value is None:
        opts.flags.add("slots")
        return i
    opts.slots = c_long(value)
    return i + 1


def parse_args(argv: list[str], now: float | None = None) -> Options:
    """Read qacct's argv; raises :class:`Usage` where Grid Engine prints its usage."""
    opts = Options()
    i = 0
    while i < len(argv):
        opt = argv[i]
        if opt in _FLAGS:
            i = _take_optional(opts, argv, i, _FLAGS[opt])
        elif opt == "-j":
            i = _take_job(opts, argv, i)
        elif opt == "-ar":
            i = _take_ar(opts, argv, i)
        elif opt == "-q":
            i = _take_queue(opts, argv, i)
        elif opt in ("-b", "-e", "-d", "-l", "-f", "-A", "-t"):
            i = _take_value(opts, argv, i, opt)
        elif opt in ("-g", "-h", "-slots"):
            i = _take_other(opts, argv, i, opt)
        elif opt == "-help":
            raise Usage(to_stdout=True)
        else:
            raise Usage()
        i += 1
    _settle_period(opts, time.time() if now is None else now)
    return opts


def _settle_period(opts: Options, now: float) -> None:
    """Derive the begin and end of the period from ``-b``, ``-e`` and ``-d`` as Grid Engine does."""
    if opts.days is None:
        return
    span = opts.days * _DAY
    if opts.end is None and opts.begin is not None:
        opts.end = opts.begin + span
    elif opts.begin is None:
        opts.begin = (opts.end if opts.end is not None else int(now)) - span
