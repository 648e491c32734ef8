"""Groups of alike queue instances: what no request of a pass can tell apart.

A category is evaluated once per group instead of once per instance
(:func:`schedd.categories.evaluate`); :mod:`schedd.kept` keeps the groups from
pass to pass while the queue instances stay the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from qmaster.complexes.levels import Level
from qmaster.complexes.table import ComplexTable
from schedd.view import JobRequest, QueueState, View

if TYPE_CHECKING:
    from schedd.candidates import KeptOrder


def _level_sig(level: Level, names: Sequence[str]) -> tuple[object, ...]:
    return (
        level.forced,
        *(
            (
                level.values.get(n),
                level.sources.get(n),
                level.capacity.get(n),
                level.load_cap.get(n),
            )
            for n in names
        ),
    )


class Groups:
    """Queue instances that no request of this pass can tell apart, evaluated once per group.

    Two instances are alike when they agree, on every attribute some job of
    the pass requests (and on every forced one), in their host's and their own
    static values, and in access lists, PE list and state. Their names do not
    count: a category with ``-q`` splits each group by name
    (:func:`named_instances`), so a ``-q`` in the pass does not make every
    instance a group of its own.
    """

    __slots__ = ("count", "members", "names", "orders", "splits")

    def __init__(
        self, view: View, queues: Sequence[QueueState], names: list[str] | None = None
    ) -> None:
        names = _requested_names(view) if names is None else names
        self.names = frozenset(names)
        self.count = len(queues)
        groups: dict[tuple[object, ...], list[int]] = {}
        for index, q in enumerate(queues):
            h = view.host(q.host)
            sig = (
                q.disabled, q.name in view.ar_queues, q.pe_list, q.user_lists, q.xuser_lists, h.user_lists, h.xuser_lists,
                q.projects, q.xprojects, h.projects, h.xprojects, q.qtype, q.ckpt_list,
                _level_sig(h.level, names), _level_sig(q.queue_level, names),
            )  # fmt: skip
            groups.setdefault(sig, []).append(index)
        self.members = list(groups.values())
        self.splits: dict[tuple[int, int], tuple[object, object, list[int], list[int]]] = {}
        self.orders: dict[tuple[int, ...], tuple[KeptOrder, list[list[int]]]] = {}
        """The members of some groups in load order (a :class:`schedd.candidates.KeptOrder`
        each, with the parts it holds: :func:`schedd.candidates.fitting_in_order`)."""

    def split(self, group: list[int], named: frozenset[int]) -> tuple[list[int], list[int]]:
        """The members of ``group`` a ``-q`` list names (``named``) and the others, worked
        out once per group and list (they are kept while the groups are)."""
        found = self.splits.get((id(group), id(named)))
        if found is None or found[0] is not group or found[1] is not named:
            inside = [i for i in group if i in named]
            others = [i for i in group if i not in named] if len(inside) < len(group) else []
            found = self.splits[(id(group), id(named))] = (group, named, inside, others)
        return found[2], found[3]

    def of(self, view: View, job: JobRequest) -> list[list[int]]:
        """The groups for ``job``: one instance each when it requests an attribute the
        groups were not told apart by (a job that is not among the view's, e.g. an AR)."""
        wanted = _full_names(view, [*job.hard_resources, *job.soft_resources])
        return self.members if wanted <= self.names else self.singles()

    def singles(self) -> list[list[int]]:
        """Every instance a group of its own."""
        return [[i] for i in range(self.count)]


def _full_names(view: View, keys: Sequence[str]) -> set[str]:
    table = view.complexes
    names: set[str] = set()
    for key in keys:
        entry = table.get(key)
        names.add(entry.name if entry else key)
    return names


def _requested_names(view: View) -> list[str]:
    table = view.complexes
    names: set[str] = {"slots"}
    keys: set[str] = set()
    for job in view.jobs:
        keys.update(job.hard_resources)
        keys.update(job.soft_resources)
    for key in keys:
        entry = table.get(key)
        names.add(entry.name if entry else key)
    return sorted(names | _always(table))


_ALWAYS: list[tuple[object, frozenset[str]]] = []


def _always(table: ComplexTable) -> frozenset[str]:
    """The attributes that tell instances apart whatever is requested: the consumables
    and the forced ones (of the last table asked about, kept: one per configuration)."""
    if _ALWAYS and _ALWAYS[0][0] is table:
        return _ALWAYS[0][1]
    found = frozenset(
        e.name for e in table if e.consumable.value != "NO" or e.requestable.value == "FORCED"
    )
    _ALWAYS[:] = [(table, found)]
    return found
