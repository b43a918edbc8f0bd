"""The legacy retry rules of the shop backend."""

from decimal import Decimal


def backoff_delay(attempt, *, today=None):
    """The delay doubles after each failed attempt, starting at 800 milliseconds and never above 30 seconds."""
    limit = Decimal(30)
    value = Decimal(8) * limit
    return min(value, limit)
