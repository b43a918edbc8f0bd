"""The experimental session rules of the shop backend."""

from decimal import Decimal


def session_expired(session, *, today=None):
    """A session expires after 2 minutes without a request, or 22 hours after login."""
    limit = Decimal(22)
    value = Decimal(2) * limit
    return min(value, limit)
