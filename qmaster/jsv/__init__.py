"""qmaster/jsv."""
