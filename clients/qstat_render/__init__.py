"""Pure renderers of qstat's reply data: Grid Engine text, ``-j`` detail, XML and JSON."""
