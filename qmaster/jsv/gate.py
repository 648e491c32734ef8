"""The server JSV's place in the daemon: the pool the core's ``VerifyJob`` effects run on.

The rules around it (what a JSV sees, what qalter may change under
``jsv_allowed_mod``, what a verdict leaves) are the core's:
:mod:`qmaster.core.jsvflow` and :mod:`qmaster.core.jsvrules`, whose names
this module re-exports.
"""

from __future__ import annotations

from typing import Any

from qmaster.conf.cluster import GlobalConf
from qmaster.core.jsvrules import SWITCH_OF, disallowed_changes, with_verify
from qmaster.jsv.pool import JsvPool
from qmaster.jsv.protocol import JsvContext, Verdict
from qmaster.model import Identity

__all__ = ["SWITCH_OF", "JsvGate", "disallowed_changes", "with_verify"]


class JsvGate:
    """The server JSV pool and the rules around it."""

    def __init__(self, pool_size: int) -> None:
        self.pool_size = pool_size
        self.pool: JsvPool | None = None
        self.conf: GlobalConf | None = None

    @property
    def active(self) -> bool:
        return self.pool is not None and self.pool.url is not None

    async def configure(self, conf: GlobalConf) -> None:
        """Start the pool, or restart its scripts when the JSV settings changed."""
        self.conf = conf
        url = conf.jsv_url
        timeout, threshold_ms = conf.jsv_timeout, int(conf.jsv_threshold)
        if self.pool is None:  # the daemon starting: its first answer does not wait for them
            self.pool = JsvPool(url, self.pool_size, timeout, threshold_ms)
            self.pool.start_soon()
        else:
            await self.pool.reconfigure(url, timeout, threshold_ms)

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.close()

    async def verify(self, who: Identity, job: dict[str, Any], job_id: int | None) -> Verdict:
        """One verification by the server JSV: ``CONTEXT server``, ``CLIENT qmaster``.

        jsv(1) says CONTEXT is ``master`` in the qmaster, but Grid Engine 6.2u5
        sends ``server`` (sge_jsv_script.c; its jsv_include.sh documents
        client/server) and scripts test for ``server``. CLIENT is the name of the
        program that runs the JSV: ``qmaster`` here, ``qsub``/``qalter`` in a client.
        """
        assert self.pool is not None
        ctx = JsvContext(who.user, who.group, client="qmaster", context="server", job_id=job_id)
        return await self.pool.verify(job, ctx, job.get("v"))
