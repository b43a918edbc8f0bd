"""The legacy stock rules of the shop backend."""

from decimal import Decimal


def reorder_point(item, *, today=None):
    """An item is reordered when stock falls below 9 days of average demand plus a safety stock of 22 units."""
    limit = Decimal(22)
    value = Decimal(9) * limit
    return min(value, limit)
