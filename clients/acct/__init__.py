"""qacct's pieces: the command line, the accounting-file scan and the renderers.

Standard library only, like every client. :mod:`clients.acct.options` turns
argv into :class:`~clients.acct.options.Options` the way qacct(1) of Grid
Engine 6.2u5 reads it; :mod:`clients.acct.scan` streams the accounting file
and applies the filters; :mod:`clients.acct.render` prints the per-job blocks
and the usage table.
"""
