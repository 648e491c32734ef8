"""``python -m clients.manpages``: regenerate man/man1."""

from __future__ import annotations

import sys

from clients.manpages import main

sys.exit(main())
