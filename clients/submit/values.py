"""The submit options' value parsers: shared with the qmaster in :mod:`qmaster.gdi.values`.

They live there so that a value is checked the same way whatever its source
(command line, ``#$`` line, request file, a JSV, qalter); a refusal is a
:class:`~clients.common.errors.ClientError` with Grid Engine's text.
"""

from __future__ import annotations

from qmaster.gdi.values import (
    RANGE_INFINITY,
    VERIFY_MODES,
    ar_id,
    context_list,
    job_name,
    mail_options,
    name_list,
    priority,
    resource_list,
    slot_range,
    task_range,
    variable_list,
    verify_mode,
    yes_no,
)

__all__ = [
    "RANGE_INFINITY",
    "VERIFY_MODES",
    "ar_id",
    "context_list",
    "job_name",
    "mail_options",
    "name_list",
    "priority",
    "resource_list",
    "slot_range",
    "task_range",
    "variable_list",
    "verify_mode",
    "yes_no",
]
