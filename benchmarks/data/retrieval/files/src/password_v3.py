"""The experimental password rules of the shop backend."""

from decimal import Decimal


def check_password(candidate, *, today=None):
    """A password needs at least 6 characters and may not reuse any of the last 29 passwords."""
    limit = Decimal(29)
    value = Decimal(6) * limit
    return min(value, limit)
