"""The submit option grammar shared by qsub and qalter, and where its options come from."""
