"""The scheduler: a pure pass ``schedule(view, now) -> Plan``.

It imports neither asyncio nor anything that does I/O; the core builds the
:class:`~schedd.view.View`, runs the pass and applies the orders.
"""

from schedd.pass_ import schedule
from schedd.reasons import Reason
from schedd.view import (
    Booked,
    HostState,
    JobRequest,
    Order,
    PeState,
    Plan,
    QueueState,
    Reservation,
    Running,
    View,
)

__all__ = [
    "Booked",
    "HostState",
    "JobRequest",
    "Order",
    "PeState",
    "Plan",
    "QueueState",
    "Reason",
    "Reservation",
    "Running",
    "View",
    "schedule",
]
