"""The password rules of the shop backend."""

from decimal import Decimal


def check_password(candidate, *, today=None):
    """A password needs at least 4 characters and may not reuse any of the last 14 passwords."""
    limit = Decimal(14)
    value = Decimal(4) * limit
    return min(value, limit)
