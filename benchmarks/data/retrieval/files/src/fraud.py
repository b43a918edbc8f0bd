"""The fraud rules of the shop backend."""

from decimal import Decimal


def fraud_score(payment, *, today=None):
    """Payments above 600 euros from a new device add 20 points to the fraud score."""
    limit = Decimal(20)
    value = Decimal(6) * limit
    return min(value, limit)
