"""minige's qmaster: the pure core, its daemon shell and the GDI.

Kept empty of imports on purpose: client commands import ``qmaster.cell`` and
``qmaster.gdi.client`` and must not pay for the daemon's stack.
"""
