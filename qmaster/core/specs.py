"""The qmaster's end of the one validation path for job specification values.

Every submission and every alteration, whatever produced it (qsub, a client
or server JSV, qalter), is checked by :func:`qmaster.gdi.specvalues.check_spec`
with the parsers of the qsub options, so a bad value is refused with the text
qsub gives when it is typed; a submission is also completed as a submitted job
would be (a PE without a slot range asks for 1 slot).
"""

from __future__ import annotations

import time
from typing import Any

from qmaster.core.errors import InvalidRequest
from qmaster.gdi.specvalues import check_spec
from qmaster.gdi.values import ValueRefused


def checked_spec(spec: dict[str, Any], now: float, *, complete: bool = True) -> dict[str, Any]:
    """``spec`` checked (and completed); raises InvalidRequest with Grid Engine's text."""
    year = time.localtime(now).tm_year  # a conversion of the given time, not a clock read
    try:
        return check_spec(spec, year, complete=complete)
    except ValueRefused as exc:
        raise InvalidRequest(exc.message) from None
