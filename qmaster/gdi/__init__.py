"""The GDI: length-prefixed JSON frames over a Unix socket.

``frames`` and ``client`` are standard library only (clients import them);
``messages`` and ``server`` belong to the daemon.
"""
