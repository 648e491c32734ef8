"""qmaster/conf."""
