"""The server JSV of a replay: the daemon's own gate and pool, on a private event loop.

Only a replay with a JSV (``--jsv URL`` or the cell's ``jsv_url``) imports
this module: the JSV pool drives its script processes with asyncio, so such a
replay runs one event loop of its own, used only while a job is verified. The
verdicts, the refusal texts and the corrected jobs are the daemon's, from the
same :class:`~qmaster.jsv.gate.JsvGate`. Starting one sends the process's structlog
events at warning and above to stderr (the pool's chatter would bury the summary).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from qmaster import logs
from qmaster.conf.cluster import GlobalConf
from qmaster.core import Identity
from qmaster.jsv.gate import JsvGate
from qmaster.jsv.protocol import Verdict
from qmaster.jsv.url import check_script, parse_jsv_url


def with_url(conf: GlobalConf, url: str | None) -> GlobalConf:
    """The global configuration with ``jsv_url`` replaced (checked as a file value would be)."""
    if url is None:
        return conf
    return GlobalConf.with_values("--jsv", **{**conf.attrs, "jsv_url": url})


class ServerJsv:
    """Verifies submissions with the configured server JSV, one job at a time."""

    def __init__(self, conf: GlobalConf) -> None:
        url = conf.jsv_url
        assert url is not None
        check_script(parse_jsv_url(url).path)  # a replay stops here rather than refuse every job
        # the pool logs through structlog: its warnings go to stderr, its chatter nowhere
        logs.configure(None, console="console", level=logging.WARNING)
        self.loop = asyncio.new_event_loop()
        self.gate = JsvGate(1)
        self.loop.run_until_complete(self.gate.configure(conf))

    def verify(self, who: Identity, spec: dict[str, Any], job_id: int | None) -> Verdict:
        """The JSV's verdict on one job, as the daemon's driver asks for it."""
        return self.loop.run_until_complete(self.gate.verify(who, spec, job_id))

    def close(self) -> None:
        """Stop the script processes and the loop."""
        self.loop.run_until_complete(self.gate.close())
        self.loop.close()
