"""Integration tests of seg, the JSM and the event files with real processes."""
