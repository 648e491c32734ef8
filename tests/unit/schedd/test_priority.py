"""Grid Engine's job priority formula: normalisation, urgency parts, weights."""

from __future__ import annotations

from schedd.priority import (
    PriorityInput,
    Weights,
    job_priorities,
    normalize,
    npprior,
    resource_contribution,
)

COMPLEXES = {"slots": (1000.0, True), "mem": (2.0, True), "arch": (50.0, False)}


def test_posix_priority_is_normalised_over_its_fixed_range() -> None:
    """-p 0 is 0.5, -p -1023 and 1024 are the ends, whatever other jobs there are."""
    assert npprior(0) == 0.5
    assert npprior(1024) == 1.0
    assert npprior(-1023) == 1 / 2048
    assert normalize(3, 3, 3) == 0.5


def test_resource_urgency_weighs_numbers_by_value_and_slots_strings_once() -> None:
    """rrcontr: slots*1000, a numeric request value*urgency*slots, a string one its urgency."""
    requests: dict[str, float | str] = {"mem": 4.0, "arch": "lx-amd64", "unknown": 5.0}
    assert resource_contribution(2, requests, COMPLEXES.get) == 2000 + 4 * 2 * 2 + 50


def test_deadline_and_waiting_time_add_to_urgency() -> None:
    """A job near its deadline, or waiting long with weight_waiting_time, gets more urgency."""
    weights = Weights(waiting_time=1.0, deadline=3600.0)
    jobs = [
        PriorityInput(1, 0, submit_time=0.0),
        PriorityInput(2, 0, submit_time=0.0, deadline=100.0 + 3600.0),
        PriorityInput(3, 0, submit_time=50.0),
    ]
    result = job_priorities(jobs, weights, now=100.0)
    assert result[2].dlcontr == 1.0
    assert result[1].wtcontr == 100.0
    assert [result[j].nurg for j in (3, 1, 2)] == [0.0, 50 / 51, 1.0]
