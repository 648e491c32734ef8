"""qhold and qrls: set or release holds of jobs (qhold(1), qrls(1)).

In Grid Engine both are qalter under another name (qalter.c picks ``me_who``
from ``argv[0]``): the command line is qalter's (cull_parse_cmdline()), every
qalter option included, with a ``-h`` added when none is given: the user hold,
set by qhold and removed by qrls. ``-h`` takes ``u``, ``o`` and ``s`` (qrls:
to release them; sge_parse_hold_list() refuses anything else, ``u,o`` too).
``-u user_list`` picks the users' jobs (``*``: every user's), instead of any
job words. So, as Grid Engine's:

* a bad command line is qalter's complaint, ``qalter: ERROR! ...`` on stderr,
  exit its status (``qhold -x 7``: 2; ``qrls -h x 7``: 7);
* nothing but the hold (``qhold``, ``qrls -h o``) is the usage and
  ``ERROR! no option argument`` on stderr, exit 1;
* each job is answered as qalter answers (``modified hold of job 7``), on
  stdout, refusals included, and the exit code is the first answer's status
  that is not OK, in Grid Engine's numbers (``denied: job "99" does not exist``
  is STATUS_EEXIST: 3); ``all`` is a job name, as for qalter.
"""

from __future__ import annotations

from collections.abc import Sequence

from clients.common.errors import ClientError
from clients.common.sge_usage import sge_usage
from clients.common.shell import Transport
from clients.qalter import alter
from clients.submit.more_options import hold_list

# qhold and qrls are qalter (qalter.c): sge_usage(QHOLD), sge_usage(QRLS)
QHOLD_USAGE = sge_usage("qhold")
QRLS_USAGE = sge_usage("qrls")


def change_holds(transport: Transport, argv: Sequence[str], prog: str) -> int:
    """qhold or qrls (``prog``) with ``argv``: qalter's work with the implicit hold."""
    only_hold = len(argv) == 2 and argv[0] == "-h" and hold_list(argv[1], prog)
    if not argv or only_hold:  # the (implicit or given) hold is all there is
        raise ClientError("ERROR! no option argument", show_usage=True)
    return alter(transport, argv, prog)
