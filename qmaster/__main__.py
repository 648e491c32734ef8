"""``python -m qmaster`` is the ``qmaster`` command."""

from qmaster.cli import main

main()
