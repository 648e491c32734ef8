"""Cores checked while a test runs: ``validate_state`` after every stimulus, and at the end.

The unit tests install :class:`CheckedCores` for every test (``tests/unit/conftest.py``);
a test that changes a core behind its back on purpose opts out with
``@pytest.mark.no_validate_state``.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import tee
from typing import Any

import pytest

from qmaster.core import Core, Outcome
from qmaster.core.spool_image import SpoolImage
from qmaster.core.stimuli import TimeAdvanced


class CheckedCores:
    """Validates every core built while installed: after each ``handle`` and ``tick`` that
    produced something (rows, records, logs, events), and all of them at the end.

    Each core gets a fake spool (a :class:`SpoolImage`) that takes every
    outcome's rows, so ``validate_state`` also compares the spool with memory
    (a change made without its row shows at the next check). A core made by
    ``Core.recover`` starts from the rows it was given.
    """

    def __init__(self) -> None:
        self.images: dict[Core, SpoolImage] = {}
        self.checks = 0

    def check(self, core: Core, *, thorough: bool = False) -> None:
        """Validate one core against its spool image (the rebuilding checks: ``thorough``)."""
        self.checks += 1
        core.validate_state(self.images.get(core), thorough=thorough)

    def check_all(self) -> None:
        """Validate every core built since :meth:`install`, with every check."""
        for core in list(self.images):
            self.check(core, thorough=True)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Wrap the core's entry points for the rest of the test."""
        init, recover = Core.__init__, Core.recover.__func__  # type: ignore[attr-defined]
        handle, tick = Core.handle, Core.tick

        def checked_init(core: Core, *args: Any, **kw: Any) -> None:
            init(core, *args, **kw)
            self.images[core] = SpoolImage.of_core(core)

        def checked_recover(cls: type[Core], *args: Any, **kw: Any) -> Core:
            names = ("config", "settings", "jobs", "tasks", "counters", "now")
            given = dict(zip(names, args, strict=False)) | kw
            # rows recovery reads lazily (and once): a copy for the image, taken as it reads
            given["jobs"], jobs = tee(given["jobs"])
            core: Core = recover(cls, **given)
            given["jobs"] = list(jobs)
            self.images[core] = SpoolImage.of_rows(
                given["config"].to_rows(),
                given["jobs"],
                given["tasks"],
                given["counters"],
                given.get("ars"),
                given.get("story"),
            )
            self.check(core)
            return core

        def stepped(step: Callable[..., Outcome]) -> Callable[..., Outcome]:
            def checked_step(core: Core, *args: Any) -> Outcome:
                out = step(core, *args)
                if isinstance(args[0], TimeAdvanced):
                    return out  # handle() ran tick(), which took the outcome's rows already
                image = self.images.get(core)
                if image is not None:
                    image.apply(out.spool)
                if out.spool or out.reports or out.logs or out.events:
                    self.check(core)
                return out

            return checked_step

        monkeypatch.setattr(Core, "__init__", checked_init)
        monkeypatch.setattr(Core, "recover", classmethod(checked_recover))
        monkeypatch.setattr(Core, "handle", stepped(handle))
        monkeypatch.setattr(Core, "tick", stepped(tick))
