"""``python -m qmaster.sim``: the same as the ``qsim`` command."""

from qmaster.sim.cli import main

main()
