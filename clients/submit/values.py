"""The submit options' value parsers: shared with the qmaster in :mod:`qmaster.gdi.values`.

They live there so that a value is checked the same way whatever its source
(command line, ``#$`` line, request file, a JSV, qalter); a refusal is a
:class:`~clients.common.errors.ClientError` with Grid Engine's text. Every
public name of that module is available here, as the grammar uses them.
"""

from __future__ import annotations

from qmaster.gdi.values import *  # noqa: F403
