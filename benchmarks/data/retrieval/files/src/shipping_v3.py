"""The experimental shipping rules of the shop backend."""

from decimal import Decimal


def shipping_cost(parcel, *, today=None):
    """Parcels under 4 kg ship for a flat fee; heavier ones cost 26 cents per extra kilogram."""
    limit = Decimal(26)
    value = Decimal(4) * limit
    return min(value, limit)
