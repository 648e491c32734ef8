"""Queue instances whose configuration is ambiguous (qstat's state ``c``).

A queue attribute may be given per host group (``slots 1,[@a=2],[@b=4]``). When
a host belongs to two such groups with different values and has no value of its
own, Grid Engine cannot tell which applies: the queue instance is in state
``c`` (configuration ambiguous) and takes no jobs until the configuration says.
The set is worked out once per configuration state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from qmaster.conf.state import ConfState

if TYPE_CHECKING:
    from qmaster.core.machine import Core

_KEY = "ambiguous_queue_instances"


def ambiguous_instances(state: ConfState) -> frozenset[str]:
    """The queue instances for which two host groups give one attribute different values."""
    found: set[str] = set()
    for name, queue in state.cqueues.items():
        per_attr = [queue.host_values(key) for key in sorted(queue.FORMAT.host_overrides)]
        grouped = [hv for hv in per_attr if any(k.startswith("@") for k in hv.overrides)]
        if not grouped:
            continue
        for host in state.queue_hosts(queue):
            groups = state.groups_of(host)
            for hv in grouped:
                if host in hv.overrides:
                    continue
                values = {hv.overrides[g] for g in groups if g in hv.overrides}
                if len(values) > 1:
                    found.add(f"{name}@{host}")
                    break
    return frozenset(found)


def ambiguous(core: Core) -> frozenset[str]:
    """:func:`ambiguous_instances` of the core's configuration, kept until it changes."""
    return core.per_config(_KEY, frozenset, lambda: ambiguous_instances(core.config.state))
