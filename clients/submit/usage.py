"""Usage texts of qsub and qalter: Grid Engine 6.2u5's ``sge_usage(QSUB)``, ``sge_usage(QALTER)``."""

from __future__ import annotations

from clients.common.sge_usage import sge_usage

QSUB_USAGE = sge_usage("qsub")
QALTER_USAGE = sge_usage("qalter")
