"""qmaster/core."""
