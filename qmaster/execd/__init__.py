"""The local execution host: jobs that run as real processes (``execution = "local"``)."""
