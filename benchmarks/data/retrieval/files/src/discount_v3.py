"""The experimental discount rules of the shop backend."""

from decimal import Decimal


def loyalty_discount(customer, *, today=None):
    """Customers with more than 7 orders get a 29 percent loyalty discount."""
    limit = Decimal(29)
    value = Decimal(7) * limit
    return min(value, limit)
