"""The core's tables: handlers by stimulus type, and the hooks its own steps call.

This module imports no handler module and not the core itself (only for
types), so that :mod:`qmaster.core.machine` and every handler module can
import it: the handler modules fill the tables when they are imported
(importing :mod:`qmaster.core` imports them all).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar, cast

from qmaster.core.jobs import Job
from qmaster.core.outcome import Outcome

if TYPE_CHECKING:
    from qmaster.core.machine import Core

Handler = Callable[["Core", Any, float, Outcome], None]
HANDLERS: dict[type, Handler] = {}
_F = TypeVar("_F", bound=Callable[..., None])


def handler(kind: type) -> Callable[[_F], _F]:
    """Register the function that handles stimuli of type ``kind`` (one per type)."""

    def register(fn: _F) -> _F:
        HANDLERS[kind] = cast(Handler, fn)
        return fn

    return register


@dataclass(order=True, slots=True)
class Timer:
    """A due time for one task (``start`` it or ``end`` it), or for an advance
    reservation (``ar_start``, ``ar_end``; ``job_id`` is then the AR's id)."""

    at: float
    seq: int
    kind: str = field(compare=False)
    job_id: int = field(compare=False)
    task_id: int = field(compare=False)


TimerFn = Callable[["Core", Timer, float, Outcome], None]


@dataclass(slots=True)
class Hooks:
    """What the core's own steps (``tick``, ``recover``) hand over to its handler modules.

    The modules fill it when they are imported (importing :mod:`qmaster.core`
    imports them all), so this module imports none of them and no circle is
    dodged: ``lifecycle`` registers the task timers, the pass and a job's
    recovery; ``arlife`` the AR timers (kinds ``ar_*``) and AR recovery;
    ``qcalendar`` its calendar timer; ``arjobs`` the AR jobs' passes.
    """

    timers: dict[str, TimerFn] = field(default_factory=dict)
    """Timer kind (or ``prefix*``) -> handler; ``*`` handles every other kind."""
    run_pass: Callable[[Core, float, Outcome], None] | None = None
    restore_job: Callable[[Core, Job, float], None] | None = None
    restore_ars: Callable[[Core, list[dict[str, Any]], dict[str, int], float], None] | None = None
    ar_passes: Callable[[Core, float, Outcome], None] | None = None
    """After the pass: the passes of the jobs inside advance reservations (``arjobs``)."""
    job_left: Callable[[Core, Job, float, Outcome], None] | None = None
    """A task of a job inside an AR has ended (``arlife``)."""
    job_in_error: Callable[[Core, Job, float, Outcome], None] | None = None
    """A task of a job inside an AR went into error state and gave its slots back (``arlife``)."""
    validate: Callable[..., None] | None = None
    """Check every invariant of the core's state (``validate``)."""
    jobs_changed: Callable[[Core, Iterable[int]], None] | None = None
    """The jobs an outcome changed, after each stimulus (``armembers`` files them)."""

    def timer(self, kind: str) -> TimerFn:
        """The handler of one timer kind."""
        found = self.timers.get(kind)
        if found is None:
            prefixed = (
                fn
                for key, fn in self.timers.items()
                if key != "*" and key.endswith("*") and kind.startswith(key[:-1])
            )
            found = next(prefixed, None) or self.timers["*"]
        return found


HOOKS = Hooks()
