"""The urgency policy of sge_urgency.c: resource, waiting-time and deadline contributions.

- *resource requirement*: for every hard request (``slots`` always), the
  attribute's ``urgency`` from the complex table times the requested amount
  (1 for a string request), times the job's slots — once per job for a
  ``JOB`` consumable. A parallel job counts the slots its PE's
  ``urgency_slots`` names (``min``, ``max``, ``avg`` or a number).
- *waiting time*: ``weight_waiting_time`` times the seconds since submission.
- *deadline*: ``weight_deadline`` divided by the seconds left until the
  deadline (the whole weight once it is reached).
"""

from __future__ import annotations

import math

from qmaster.complexes.table import ComplexTable
from qmaster.complexes.values import ValueParseError, parse_double
from qmaster.digits import is_digits
from schedd.priority import Weights
from schedd.requests import Compiled


def urgency_slots(rule: str, pe_min: int, pe_max: int) -> float:
    """The slot count a PE's ``urgency_slots`` rule gives a job of ``pe_min``-``pe_max``."""
    word = rule.strip().lower()
    top = pe_max if pe_max < 9_999_999 else pe_min
    if word == "max":
        return float(top)
    if word == "avg":
        return (pe_min + top) / 2
    if is_digits(word):
        return float(word)
    return float(pe_min)


def _weight(table: ComplexTable, name: str) -> float:
    entry = table.get(name)
    if entry is None:
        return 0.0
    try:
        return parse_double(entry.urgency)
    except ValueParseError:
        return 0.0


def resource_urgency(c: Compiled, table: ComplexTable, slots: float) -> float:
    """The resource requirement contribution of a job's hard requests."""
    total = 0.0
    for r in (*c.fixed, *c.consumables):
        weight = _weight(table, r.name)
        if not weight:
            continue
        amount = r.value if isinstance(r.value, float) else 1.0
        if math.isinf(amount):
            continue
        total += weight * amount * (1.0 if r.per_job else slots)
    return total


def urgency(
    resource: float, submit_time: float, deadline: float | None, now: float, w: Weights
) -> float:
    """A job's urgency: resource, waiting-time and deadline contributions added up."""
    waiting = w.waiting_time * max(0.0, now - submit_time)
    if deadline is None:
        return resource + waiting
    left = deadline - now
    return resource + waiting + (w.deadline if left <= 1 else w.deadline / left)
