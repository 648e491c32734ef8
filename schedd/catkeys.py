"""Category keys: what makes two jobs' requests interchangeable for matching (their
resources, queues, PE, master queues and project; the owner and group too when access
lists could tell them apart), and the key's text a job keeps from pass to pass.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import replace
from functools import lru_cache

from schedd.view import JobRequest


def base_key(job: JobRequest) -> Hashable:
    """What makes two jobs' requests interchangeable for matching (owner aside)."""
    return request_key(job.hard_resources, job.soft_resources, job.hard_queues,
                       job.soft_queues, job.pe_name, job.pe_min, job.pe_max,
                       job.master_queues, job.project, job.ckpt, job.immediate)  # fmt: skip


Queues = tuple[str, ...]


def request_key(hard: Mapping[str, str], soft: Mapping[str, str], hard_queues: Queues,
                soft_queues: Queues, pe_name: str | None, pe_min: int, pe_max: int,
                master_queues: Queues, project: str | None, ckpt: str | None = None,
                immediate: bool = False) -> Hashable:  # fmt: skip
    """:func:`base_key` of a request not yet made (its parts as they will be). A ``-ckpt``
    or ``-now y`` job's key ends with both; other jobs' keys do not have them."""
    key = (tuple(hard.items()), tuple(soft.items()) if soft else (), hard_queues,
           soft_queues, pe_name, pe_min, pe_max, master_queues, project)  # fmt: skip
    return (*key, ckpt, immediate) if ckpt is not None or immediate else key


def with_category(job: JobRequest) -> JobRequest:
    """The job with its category key filled in (to keep it from pass to pass).

    The key is the text of :func:`base_key`: a string caches its hash, so a pass
    looks each job's category up without rehashing nested tuples.
    """
    return replace(job, category=category_text(base_key(job)))


@lru_cache(maxsize=4096)
def category_text(key: Hashable) -> str:
    """The text of a category key, made once per distinct key (jobs share few categories)."""
    return repr(key)


def category_key(job: JobRequest, with_owner: bool) -> Hashable:
    """What makes two jobs interchangeable: their requests, and their owner when access differs."""
    base = job.category if job.category is not None else base_key(job)
    return (base, job.owner, job.group) if with_owner else base
