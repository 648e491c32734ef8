"""qmaster/complexes."""
