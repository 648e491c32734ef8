"""``queue_select``: the queue instances qselect(1) prints.

Grid Engine narrows the list in this order: ``-q`` patterns, ``-qs`` states,
``-U`` users with access, ``-pe`` environments, ``-l`` resources. When ``-q``,
``-U`` or ``-pe`` leaves nothing, the reply says which with Grid Engine's
``no queues remaining after -q queue selection``; an empty result is an
error either way (qselect ends with 1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fnmatch import fnmatchcase

from qmaster.conf import fields as f
from qmaster.core.errors import InvalidRequest
from qmaster.core.host_values import compile_match, host_levels, offers, with_alarms
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.query import queue_rows
from qmaster.core.registry import handler
from qmaster.core.stimuli import QueueSelect
from qmaster.core.view import queue_states, usersets
from schedd.matching import queue_matches
from schedd.view import QueueState

#: qinstance_state_from_string's letters (sge_qinstance_state.c)
STATE_LETTERS = frozenset("aACDdEcosSu")


def check_states(text: str) -> frozenset[str]:
    """``-qs``: each letter a queue state; Grid Engine's message for another."""
    for char in text:
        if char not in STATE_LETTERS:
            raise InvalidRequest(f"unknown queue state: {char} found in string: {text}")
    return frozenset(text)


def _member(user: str, lists: tuple[str, ...], sets: Mapping[str, frozenset[str]]) -> bool:
    return any(user in sets.get(name, frozenset()) for name in lists)


def _access(core: Core, q: QueueState, user: str, sets: Mapping[str, frozenset[str]]) -> bool:
    """user_lists/xuser_lists of the queue, its host and the global host."""
    pairs = [(q.user_lists, q.xuser_lists)]
    for name in ("global", q.host):
        conf = core.config.exechost(name)
        if conf is not None:
            attrs = conf.attrs
            pairs.append(
                (
                    tuple(f.split_list(attrs.get("user_lists", "NONE"))),
                    tuple(f.split_list(attrs.get("xuser_lists", "NONE"))),
                )
            )
    for users, xusers in pairs:
        if xusers and _member(user, xusers, sets):
            return False
        if users and not _member(user, users, sets):
            return False
    return True


def _narrow(
    queues: list[QueueState], keep: Callable[[QueueState], bool], option: str | None
) -> list[QueueState]:
    left = [q for q in queues if keep(q)]
    if not left and option is not None:
        raise InvalidRequest(f"no queues remaining after {option} queue selection")
    return left


@handler(QueueSelect)
def handle_queue_select(core: Core, args: QueueSelect, now: float, out: Outcome) -> None:
    """qselect: the names of the queue instances that pass every selection."""
    states = check_states(args.states) if args.states else None  # empty: no filter
    queues = queue_states(core, empty=True)
    if args.queues:
        patterns = args.queues
        queues = _narrow(queues, lambda q: any(queue_matches(p, q) for p in patterns), "-q")
    if states is not None:
        rows = queue_rows(core)
        with_alarms(core, rows)
        shown = {str(row["name"]): set(str(row["states"])) for row in rows}
        queues = _narrow(queues, lambda q: bool(shown.get(q.name, set()) & states), None)
    if args.users:
        sets, users = usersets(core), args.users
        queues = _narrow(queues, lambda q: any(_access(core, q, u, sets) for u in users), "-U")
    if args.pes:
        pes = args.pes
        queues = _narrow(
            queues, lambda q: any(fnmatchcase(p, pat) for p in q.pe_list for pat in pes), "-pe"
        )
    if args.resources:
        compiled = compile_match(core.config.complexes, dict(args.resources))
        glob, hosts = host_levels(core)
        queues = [
            q for q in queues
            if q.host in hosts and q.level is not None
            and offers(compiled, [glob, hosts[q.host], q.level])
        ]  # fmt: skip
    out.data = {"queues": [q.name for q in queues]}
