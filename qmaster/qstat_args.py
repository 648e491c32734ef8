"""qstat's ``-qs``, ``-explain`` and ``-g`` arguments, read as Grid Engine 6.2u5 reads them.

Standard library only: qstat checks them before it asks the qmaster, and the
qmaster checks what arrives the same way, so a value is judged alike
whoever sends it. ``-qs`` takes any of the queue state letters
(``qinstance_state_from_string`` with every state allowed), ``-explain``
only ``a``, ``A``, ``c`` and ``E``; an other letter gets ``unknown queue
state: <c> found in string: <s>``. ``-g`` takes ``c``, ``d`` and ``t``; an
other letter gets ``wrong character '<c>' for -g option``.
"""

from __future__ import annotations

QUEUE_STATES = "acdosuACDES"
EXPLAIN_STATES = "aAcE"
GROUPS = "cdt"


def parse_queue_states(text: str, allowed: str = QUEUE_STATES) -> frozenset[str]:
    """The state letters of ``text``; ValueError with Grid Engine's message otherwise."""
    for letter in text:
        if letter not in allowed:
            raise ValueError(f"unknown queue state: {letter} found in string: {text}")
    return frozenset(text)


def parse_explain(text: str) -> frozenset[str]:
    """The ``-explain`` letters."""
    return parse_queue_states(text, EXPLAIN_STATES)


def parse_group(text: str) -> str:
    """The ``-g`` letters; ValueError with Grid Engine's message for an other one."""
    for letter in text:
        if letter not in GROUPS:
            raise ValueError(f"wrong character '{letter}' for -g option")
    return text
