"""``qstat -j JOB -story`` (a minige addition): each job's block, then its story.

The ``story:`` section follows the job's ``qstat -j`` block, laid out as the
``scheduling info:`` lines are: one line per change, oldest first, with the
local time as qstat's job listings print it, the stimulus id, the stimulus and
the transition it made (``pending -> transferring (all.q@host1, task 3)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clients.qstat_render.detail import KEY_WIDTH, line, render_detail
from clients.qstat_render.times import ge_time

Detail = dict[str, Any]


def story_lines(story: Sequence[Sequence[Any]]) -> list[str]:
    """The ``story:`` section of one job (nothing for an empty story)."""
    if not story:
        return []
    width = max(len(str(cause)) for _, _, cause, _ in story)
    id_width = max(len(str(stimulus)) for _, stimulus, _, _ in story)
    texts = [
        f"{ge_time(float(at))}  {stimulus:>{id_width}}  {cause:<{width}}  {change}"
        for at, stimulus, cause, change in story
    ]
    return [line("story", texts[0]), *(" " * KEY_WIDTH + t + "\n" for t in texts[1:])]


def render_details_with_story(details: Sequence[Detail], *, binding: bool = False) -> str:
    """Every job's block in order, each followed by its story."""
    return "".join(
        render_detail(d, binding=binding) + "".join(story_lines(d.get("story") or ()))
        for d in details
    )
