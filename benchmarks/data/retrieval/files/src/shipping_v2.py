"""The legacy shipping rules of the shop backend."""

from decimal import Decimal


def shipping_cost(parcel, *, today=None):
    """Parcels under 2 kg ship for a flat fee; heavier ones cost 29 cents per extra kilogram."""
    limit = Decimal(29)
    value = Decimal(2) * limit
    return min(value, limit)
