"""Queue instance states: what qstat -f shows in its ``states`` column, and what they mean.

Grid Engine keeps a set of state bits per queue instance. minige keeps the ones
an administrator sets with qmod — ``d`` disabled, ``s`` suspended, ``E`` error —
per queue instance in :attr:`Core.qi_states` and spools them (as an integer bit
set under the spool's counters, ``qi_state:<queue instance>``), so they survive
a restart. The calendar states ``D`` (disabled by calendar) and ``C`` (suspended
by calendar) follow from the queue's ``calendar`` and the time
(:mod:`qmaster.core.qcalendar`); ``c`` (configuration ambiguous) from the
configuration (:mod:`qmaster.core.ambiguity`); ``a`` (load alarm) and ``o``
(orphaned) are worked out where qstat asks for them.

A queue instance that is disabled, suspended, in error (by hand or by its
calendar) or ambiguously configured takes no new jobs; a suspended one also suspends the jobs running in
it (their state ``S``).
"""

from __future__ import annotations

from collections.abc import Iterable

# qstat's order of the letters (sge_qinstance_state.c)
ORDER = "aACDduESsco"
MANUAL = "dsE"  # set and cleared with qmod, spooled
NO_NEW_JOBS = frozenset("dsEDCuc")
SUSPENDING = frozenset("sCS")
SPOOL_PREFIX = "qi_state:"
_BITS = {"d": 1, "s": 2, "E": 4}

# the words of qmod's answers (MSG_QINSTANCE_* of 6.2u5): set, cleared
NAMES = {
    "a": ("load alarm", "no load alarm"),
    "d": ("disabled", "enabled"),
    "s": ("suspended", "unsuspended"),
    "u": ("unknown", "not unknown"),
    "E": ("error", "no error"),
    "S": ("suspended on subordinate", "no suspended on subordinate"),
    "D": ("calendar disabled", "calendar enabled"),
    "C": ("calendar suspended", "calendar unsuspended"),
    "c": ("configuration ambiguous", "not configuration ambiguous"),
    "o": ("orphaned", "not orphaned"),
}


def shown(letters: Iterable[str]) -> str:
    """The state column: the letters in Grid Engine's order."""
    have = set(letters)
    return "".join(c for c in ORDER if c in have)


def encode(flags: frozenset[str]) -> int:
    """The spooled integer of a queue instance's manual states."""
    return sum(bit for c, bit in _BITS.items() if c in flags)


def decode(value: int) -> frozenset[str]:
    """The manual states of a spooled integer."""
    return frozenset(c for c, bit in _BITS.items() if value & bit)


def spool_key(qi_name: str) -> str:
    return SPOOL_PREFIX + qi_name


def restore(counters: dict[str, int]) -> dict[str, frozenset[str]]:
    """The manual states kept in the spool's counters."""
    out: dict[str, frozenset[str]] = {}
    for key, value in counters.items():
        if key.startswith(SPOOL_PREFIX) and value:
            out[key[len(SPOOL_PREFIX) :]] = decode(int(value))
    return out


def transition(flags: frozenset[str], letter: str, on: bool) -> frozenset[str] | None:
    """The new manual states when ``letter`` is set (``on``) or cleared; None if no change."""
    if letter not in MANUAL:
        raise ValueError(f"state {letter!r} is not set by hand")
    if (letter in flags) == on:
        return None
    return flags | {letter} if on else flags - {letter}


def takes_jobs(letters: Iterable[str]) -> bool:
    """False when the queue instance may not start new jobs."""
    return not NO_NEW_JOBS.intersection(letters)


def suspends(letters: Iterable[str]) -> bool:
    """True when the queue instance's jobs are suspended."""
    return bool(SUSPENDING.intersection(letters))


def unusable(letters: Iterable[str]) -> list[str]:
    """The state names that keep an advance reservation's queue instance from serving it."""
    return [NAMES[c][0] for c in shown(letters) if c in NO_NEW_JOBS]
