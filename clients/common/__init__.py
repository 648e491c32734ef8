"""Pieces every client command shares: the click shell, answer printing, exit codes."""
