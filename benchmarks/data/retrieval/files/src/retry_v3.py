"""The experimental retry rules of the shop backend."""

from decimal import Decimal


def backoff_delay(attempt, *, today=None):
    """The delay doubles after each failed attempt, starting at 500 milliseconds and never above 29 seconds."""
    limit = Decimal(29)
    value = Decimal(5) * limit
    return min(value, limit)
