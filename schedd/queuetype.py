"""Queue types and the jobs that need them (queue_conf(5) ``qtype`` and ``ckpt_list``)."""

from __future__ import annotations

from schedd.reasons import Reason
from schedd.view import JobRequest, QueueState


def queue_type_reason(job: JobRequest, q: QueueState) -> Reason | None:
    """Whether the queue instance is of the type the job needs, as sge_queue_match_static():
    a ``-ckpt`` job needs a queue whose ``ckpt_list`` names its environment, a ``-now y``
    job an INTERACTIVE queue, any other job without a PE a BATCH queue; a ``-ckpt`` job
    without a PE may not use a parallel queue that is not BATCH."""
    if job.ckpt is not None:
        if not q.ckpt_list:
            return Reason("not_ckpt", "queue", q.name)
        if job.ckpt not in q.ckpt_list:
            return Reason("ckpt_list", "queue", q.name, job.ckpt)
    if job.immediate:
        if "INTERACTIVE" not in q.qtype:
            return Reason("not_interactive", "queue", q.name)
    elif job.pe_name is None and job.ckpt is None:
        if "BATCH" not in q.qtype:
            return Reason("not_batch", "queue", q.name)
    elif job.ckpt is not None and job.pe_name is None and q.pe_list and "BATCH" not in q.qtype:
        return Reason("not_parallel_job", "queue", q.name)
    return None
