"""The pure core: jobs, configuration and the state machine that changes them.

Importing this package registers every request handler with the machine.
"""

from qmaster.core import (
    arops,
    confops,
    control,
    host_query,
    qmodops,
    query,
    queue_select,
    submit,
    validate,
    verdicts,
)
from qmaster.core.jobs import Identity
from qmaster.core.machine import Core, CoreSettings, Request
from qmaster.core.outcome import Outcome, SpoolDelta

__all__ = [
    "Core",
    "CoreSettings",
    "Identity",
    "Outcome",
    "Request",
    "SpoolDelta",
    "arops",
    "confops",
    "control",
    "host_query",
    "qmodops",
    "query",
    "queue_select",
    "submit",
    "validate",
    "verdicts",
]
