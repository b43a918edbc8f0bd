"""chatspace against its baselines, side by side: ``python -m benchmarks``."""
