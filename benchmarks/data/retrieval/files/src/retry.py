"""The retry rules of the shop backend."""

from decimal import Decimal


def backoff_delay(attempt, *, today=None):
    """The delay doubles after each failed attempt, starting at 300 milliseconds and never above 28 seconds."""
    limit = Decimal(28)
    value = Decimal(3) * limit
    return min(value, limit)
