"""Persistence: the cell's SQLite spool (WAL mode)."""
