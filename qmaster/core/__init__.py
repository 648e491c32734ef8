"""The pure core: jobs, configuration and the state machine that changes them.

Importing this package registers every stimulus's handler with the machine.
"""

from qmaster.core import (
    arops,
    confops,
    control,
    deletion,
    host_query,
    jsvflow,
    localexec,
    qmodops,
    query,
    queue_select,
    resubmit,
    runlog,
    submit,
    validate,
    verdicts,
)
from qmaster.core.jobs import Identity
from qmaster.core.machine import Core, CoreSettings
from qmaster.core.outcome import Outcome, SpoolDelta

__all__ = [
    "Core",
    "CoreSettings",
    "Identity",
    "Outcome",
    "SpoolDelta",
    "arops",
    "confops",
    "control",
    "deletion",
    "host_query",
    "jsvflow",
    "localexec",
    "qmodops",
    "query",
    "queue_select",
    "resubmit",
    "runlog",
    "submit",
    "validate",
    "verdicts",
]
