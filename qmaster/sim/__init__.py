"""qsim: the second driver of the core, replaying workload traces in virtual time.

The simulator feeds the very core and scheduler the daemon runs from a trace
(Standard Workload Format 2.2, or minige's own accounting file), ticks it at
:meth:`~qmaster.core.Core.next_deadline` on a virtual clock, and writes the
daemon's accounting and reporting files plus a summary. It imports none of the
daemon's asyncio, socket or spool code.
"""
