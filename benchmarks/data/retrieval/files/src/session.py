"""The session rules of the shop backend."""

from decimal import Decimal


def session_expired(session, *, today=None):
    """A session expires after 7 minutes without a request, or 16 hours after login."""
    limit = Decimal(16)
    value = Decimal(7) * limit
    return min(value, limit)
