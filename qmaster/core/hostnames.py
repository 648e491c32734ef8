"""Host names as the qmaster resolves them, without a name service: an execution, admin
or submit host of the cell (compared without case), the qmaster's own host, and
``localhost``. Used for the ``host:`` of qsub's path lists and for HOST requests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from qmaster.complexes.types import ValueType
from qmaster.core.errors import InvalidRequest
from qmaster.core.jobspec import JobSpec
from qmaster.core.machine import Core


def check_path_hosts(core: Core, items: Sequence[str]) -> None:
    """job_resolve_host_for_path_list(): each ``host:`` names a host Grid Engine knows
    (no name service here: an execution, admin or submit host, or one that resolves
    wherever it is asked: the qmaster's own host and ``localhost``), and once only."""
    seen: set[str] = set()  # "" for the paths without a host
    for item in items:
        host = item.partition(":")[0].lower() if ":" in item[1:] else ""
        if host and not _known_host(core, host):
            raise InvalidRequest(f'can\'t resolve hostname "{item.partition(":")[0]}"')
        if host in seen:
            raise InvalidRequest("ERROR! two files are specified for the same host")
        seen.add(host)


PATH_LISTS = (("o", "stdout"), ("i", "stdin"), ("S", "shells"), ("e", "stderr"))
"""The path lists whose hosts the qmaster resolves, in its order (their request keys)."""


def check_path_lists(core: Core, spec: JobSpec, keys: Iterable[str] | None = None) -> None:
    """job_resolve_host_for_path_list() of each path list, or of those ``keys`` name:
    a submission resolves them all before its job gets a number and, as
    sge_job_verify_adjust(), reports each list's first fault (``-o a:/x -e b:/y``: both
    hosts); qalter checks the lists it sets and stops at the first fault, as
    mod_job_attributes() (a host gone since the submission does not stop an alteration
    of the rest)."""
    wanted = None if keys is None else frozenset(keys)
    faults: list[InvalidRequest] = []
    for key, attr in PATH_LISTS:
        if wanted is None or key in wanted:
            try:
                check_path_hosts(core, getattr(spec, attr) or ())
            except InvalidRequest as fault:
                if wanted is not None:
                    raise
                faults.append(fault)
    if faults:
        last = faults[-1]
        last.earlier = tuple(f.to_answer() for f in faults[:-1])
        raise last


def _known_host(core: Core, name: str) -> bool:
    return _resolved(core, name) is not None


def _resolved(core: Core, name: str) -> str | None:
    """The host name Grid Engine's resolver gives ``name`` (compared without case; the
    qmaster's own name for ``localhost``), or None for a host it does not know."""
    conf = core.config.state
    if name.lower() == "localhost":
        return core.settings.qmaster_host or name
    hosts = (*conf.exechosts, *conf.adminhosts, *conf.submithosts, core.settings.qmaster_host)
    return next((h for h in hosts if h and h.lower() == name.lower()), None)


_EXPRESSION = frozenset("*?[]|&!()")


def resolved_request(core: Core, name: str, value: str) -> str:
    """The value stored for a request: a HOST request names a host Grid Engine resolves,
    and is stored as the resolved name (centry_fill_and_check(): ``-l h=HOST1`` is
    ``hostname=host1``; an expression or pattern is taken as it is)."""
    entry = core.config.complexes.get(name)
    if entry is None or entry.type is not ValueType.HOST or _EXPRESSION.intersection(value):
        return value
    resolved = _resolved(core, value)
    if resolved is None:
        raise InvalidRequest(f'can\'t resolve hostname "{value}"')
    return resolved
