"""qstat's ``-s`` state filter, read as Grid Engine 6.2u5 reads it (standard library only).

``-s {p|r|s|z|hu|ho|hs|hd|hj|ha|h|a}[+]``: each flag sets display bits; a hold
flag (``hu`` user, ``ho`` operator, ``hs`` system, ``hd`` array dependency,
``hj`` job dependency, ``ha`` start time) also selects pending jobs and limits
them to those with that hold; ``h`` is every hold flag, ``a`` is ``prs``.

The string is scanned the way ``build_job_state_filter`` does it: pass after
pass over the flag table in its order, each flag that matches at the current
position is taken and the position moves on (so a later flag in the table is
tried at the new position within the same pass). A pass that takes nothing
is an error. Both qstat and the qmaster call :func:`parse_state_filter`, so a
value is judged the same way whoever sends it.
"""

from __future__ import annotations

WRONG_ARGUMENT = "ERROR! wrong argument to -s option"

#: The hold letters after ``h`` (``hu`` -> ``u``), in Grid Engine's table order.
HOLDS = ("u", "s", "o", "d", "j", "a")

PENDING, RUNNING, SUSPENDED, ZOMBIE = "p", "r", "s", "z"

_TABLE: tuple[tuple[str, frozenset[str]], ...] = (
    *((f"h{h}", frozenset({f"h{h}", PENDING})) for h in HOLDS),
    ("h", frozenset({*(f"h{h}" for h in HOLDS), PENDING})),
    ("p", frozenset({PENDING})),
    ("r", frozenset({RUNNING})),
    ("s", frozenset({SUSPENDED})),
    ("z", frozenset({ZOMBIE})),
    ("a", frozenset({PENDING, RUNNING, SUSPENDED})),
)

#: What qstat shows without ``-s``: pending, running and suspended jobs.
DEFAULT = frozenset({PENDING, RUNNING, SUSPENDED})


def parse_state_filter(text: str) -> frozenset[str]:
    """The selected bits (``p r s z`` and ``hu hs ho hd hj ha``); ``ValueError`` if malformed."""
    chosen: set[str] = set()
    pos = 0
    while pos < len(text):
        matched = False
        for flag, bits in _TABLE:
            if text.startswith(flag, pos):
                chosen |= bits
                pos += len(flag)
                matched = True
        if not matched:
            raise ValueError(WRONG_ARGUMENT)
    return frozenset(chosen)


def selected_holds(bits: frozenset[str]) -> frozenset[str]:
    """The hold letters a filter asks for (empty: pending jobs are not limited by hold)."""
    return frozenset(b[1] for b in bits if len(b) == 2 and b[0] == "h")
