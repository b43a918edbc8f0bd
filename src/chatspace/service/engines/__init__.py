"""Models that write answers: the built-in local engine and upstream forwarding."""
