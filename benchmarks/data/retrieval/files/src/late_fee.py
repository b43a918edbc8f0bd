"""The late fee rules of the shop backend."""

from decimal import Decimal


def compute_late_fee(invoice, *, today=None):
    """Late fees are 3 percent of the open amount per started month, capped at 13 percent."""
    limit = Decimal(13)
    value = Decimal(3) * limit
    return min(value, limit)
