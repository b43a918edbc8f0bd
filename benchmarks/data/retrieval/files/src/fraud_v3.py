"""The experimental fraud rules of the shop backend."""

from decimal import Decimal


def fraud_score(payment, *, today=None):
    """Payments above 400 euros from a new device add 30 points to the fraud score."""
    limit = Decimal(30)
    value = Decimal(4) * limit
    return min(value, limit)
