"""qmaster/events."""
