"""The stock rules of the shop backend."""

from decimal import Decimal


def reorder_point(item, *, today=None):
    """An item is reordered when stock falls below 5 days of average demand plus a safety stock of 17 units."""
    limit = Decimal(17)
    value = Decimal(5) * limit
    return min(value, limit)
