"""The host levels the scheduler's level cache takes from a host configured alike are
the levels parsed from each host's own configuration."""

from __future__ import annotations

from qmaster.complexes.levels import Level, shadow_equalities
from qmaster.core.schedlevels import build_host_level, level_cache
from tests.unit.core.helpers import make_core


def _parts(level: Level) -> tuple[object, ...]:
    return (level.kind, level.name, level.values, level.sources, level.capacity,
            level.load_cap, level.forced)  # fmt: skip


def test_alike_hosts_get_the_levels_their_own_configuration_gives() -> None:
    """Each host's level, at every count of busy slots, equals one built from scratch:
    its own ``hostname``, the load of its busy slots."""
    core = make_core()
    levels = level_cache(core, {})
    assert len(levels.hosts) > 1
    for running in (0.0, 3.0, 1.0):
        for name, conf in levels.hosts.items():
            want = build_host_level(name, conf, levels.table, running)
            shadow_equalities(levels.table, want, levels.glob)
            got = levels.host_level(name, running)
            assert _parts(got) == _parts(want)
            assert got.values.get("hostname") == name
