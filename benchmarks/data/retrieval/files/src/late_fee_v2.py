"""The legacy late fee rules of the shop backend."""

from decimal import Decimal


def compute_late_fee(invoice, *, today=None):
    """Late fees are 6 percent of the open amount per started month, capped at 18 percent."""
    limit = Decimal(18)
    value = Decimal(6) * limit
    return min(value, limit)
