"""What qquota reads besides the resource quota sets: the counts, usersets, host groups."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from qmaster.complexes.formula import evaluate
from qmaster.core.qstat_levels import host_levels
from qmaster.core.quotaview import usage
from qmaster.rqs.model import dynamic_terms

if TYPE_CHECKING:
    from qmaster.core.machine import Core


def quota_usage(core: Core) -> dict[str, Any]:
    """What qquota reads besides the sets: the counts (``[set, rule index, attribute, rue,
    used, limit]``, a dynamic limit worked out for the rue's host), the usersets and the
    host groups (resolved) its ``-u @set`` and ``-h @group`` name."""
    state = core.config.state
    counted = usage(core)
    rows: list[list[Any]] = []
    if counted is not None:
        sets = {rqs.name: rqs for rqs in counted.quotas.sets}
        hosts = {key[3].split("/")[4] for key in counted.totals}
        levels = host_levels(core, [h for h in hosts if h]).hosts
        for (name, index, attr, rue), used in counted.totals.items():
            limit = dict(sets[name].rules[index].limits)[attr]
            if "$" in limit:
                level = levels.get(rue.split("/")[4])
                values = level.values if level is not None else {}
                got = evaluate(dynamic_terms(limit), partial(_number, values))
                limit = str(int(got or 0))
            rows.append([name, index, attr, rue, used, limit])
    return {
        "usage": rows,
        "usersets": {n: list(u.entries) for n, u in state.usersets.items()},
        "hostgroups": {n: state.hosts_of_group(n) for n in state.hostgroups},
    }


def _number(values: Mapping[str, object], name: str) -> float | None:
    value = values.get(name)
    return value if isinstance(value, float) else None
