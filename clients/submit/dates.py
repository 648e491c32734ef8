"""Grid Engine's ``date_time``: the parser is shared with the qmaster (:mod:`qmaster.gdi.values`)."""

from __future__ import annotations

from qmaster.gdi.values import parse_date_time

__all__ = ["parse_date_time"]
