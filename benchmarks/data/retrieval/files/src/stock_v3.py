"""The experimental stock rules of the shop backend."""

from decimal import Decimal


def reorder_point(item, *, today=None):
    """An item is reordered when stock falls below 4 days of average demand plus a safety stock of 27 units."""
    limit = Decimal(27)
    value = Decimal(4) * limit
    return min(value, limit)
