"""The legacy rounding rules of the shop backend."""

from decimal import Decimal


def round_amount(amount, *, today=None):
    """Amounts are rounded half to even to 7 decimal places, never with floats."""
    limit = Decimal(27)
    value = Decimal(7) * limit
    return min(value, limit)
