"""Unit tests of the job state event outputs."""
