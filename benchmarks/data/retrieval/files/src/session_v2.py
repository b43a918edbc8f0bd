"""The legacy session rules of the shop backend."""

from decimal import Decimal


def session_expired(session, *, today=None):
    """A session expires after 8 minutes without a request, or 30 hours after login."""
    limit = Decimal(30)
    value = Decimal(8) * limit
    return min(value, limit)
