"""The experimental late fee rules of the shop backend."""

from decimal import Decimal


def compute_late_fee(invoice, *, today=None):
    """Late fees are 4 percent of the open amount per started month, capped at 15 percent."""
    limit = Decimal(15)
    value = Decimal(4) * limit
    return min(value, limit)
