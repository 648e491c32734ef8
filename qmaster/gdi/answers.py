"""Grid Engine answer lists: ``(status, quality, text)`` triples. Standard library only.

The values live in the leaf module :mod:`qmaster.model`; this module keeps the
names where the GDI and its clients have always imported them.
"""

from __future__ import annotations

from qmaster.model import Answer, Quality, Status, error, ok, warning

__all__ = ["Answer", "Quality", "Status", "error", "ok", "warning"]
