"""Shared pieces of the advance reservation commands qrsub, qrstat and qrdel."""
