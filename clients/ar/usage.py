"""Usage texts of qrsub, qrstat and qrdel: Grid Engine 6.2u5's ``sge_usage()`` for each."""

from __future__ import annotations

from clients.common.sge_usage import sge_usage

QRSUB_USAGE = sge_usage("qrsub")

# -fmt and -json are minige's own, after Grid Engine's options
QRSTAT_USAGE = sge_usage(
    "qrstat",
    extra=(
        ("[-fmt plain|json|xml]", "output format"),
        ("[-json]", "display the information as a JSON document"),
    ),
)

QRDEL_USAGE = sge_usage("qrdel")
