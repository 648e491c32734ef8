"""Which execution hosts run their tasks as real processes (local) and which simulate them.

The cell's ``execution`` setting (``qmaster.toml``, ``MINIGE_EXECUTION``) is
every host's default; a host's ``load_values`` entry ``execution=local`` or
``execution=simulated`` overrides it (``qconf -mattr exechost load_values
execution=local host1``), so one cell mixes simulated and local hosts. Grid
Engine has no such attribute: a load value is what a host reports of itself,
as a load sensor would, and keeps the complex table Grid Engine's own. A task
runs the way its master host said when it started.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from qmaster.core.jobs import Task

if TYPE_CHECKING:
    from qmaster.core.machine import Core

EXECUTION = "execution"
LOCAL = "local"
SIMULATED = "simulated"


def host_runs_locally(core: Core, host: str) -> bool:
    """The host starts its tasks as real processes (each host's answer is kept while the
    configuration stands: every task's start and end asks)."""
    answers = core.per_config("runs_locally", dict, dict)
    found = answers.get((host, core.settings.local_execution))
    if found is None:
        found = answers[(host, core.settings.local_execution)] = _host_runs_locally(core, host)
    return bool(found)


def _host_runs_locally(core: Core, host: str) -> bool:
    conf = core.config.exechost(host)
    mode = conf.load_values.get(EXECUTION) if conf is not None else None
    if mode in (LOCAL, SIMULATED):
        return mode == LOCAL
    return core.settings.local_execution


def runs_locally(core: Core, task: Task) -> bool:
    """The task's master host runs it as a real process."""
    return host_runs_locally(core, (task.queue or "").partition("@")[2])


def any_local_host(core: Core) -> bool:
    """Some host of the cell runs its tasks as real processes."""
    if core.settings.local_execution:
        return True
    return any(conf.load_values.get(EXECUTION) == LOCAL for conf in core.config.exechosts.values())
