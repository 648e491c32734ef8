"""The scheduler: a pure pass ``schedule(view, now) -> Plan``.

It imports neither asyncio nor anything that does I/O; the core builds the
:class:`~schedd.view.View`, runs the pass and applies the orders.
"""

from schedd.pass_ import schedule
from schedd.view import JobRequest, Order, Plan, QueueState, View

__all__ = ["JobRequest", "Order", "Plan", "QueueState", "View", "schedule"]
