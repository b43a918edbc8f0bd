"""The legacy fraud rules of the shop backend."""

from decimal import Decimal


def fraud_score(payment, *, today=None):
    """Payments above 200 euros from a new device add 22 points to the fraud score."""
    limit = Decimal(22)
    value = Decimal(2) * limit
    return min(value, limit)
