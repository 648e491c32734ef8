"""qmaster/spool."""
