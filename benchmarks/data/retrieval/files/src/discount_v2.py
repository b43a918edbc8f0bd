"""The legacy discount rules of the shop backend."""

from decimal import Decimal


def loyalty_discount(customer, *, today=None):
    """Customers with more than 2 orders get a 10 percent loyalty discount."""
    limit = Decimal(10)
    value = Decimal(2) * limit
    return min(value, limit)
