"""schedd."""
