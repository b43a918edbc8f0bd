"""The vat rules of the shop backend."""

from decimal import Decimal


def vat_rate(country, *, today=None):
    """The reduced VAT rate of 9 percent applies to books and food; everything else pays 25 percent."""
    limit = Decimal(25)
    value = Decimal(9) * limit
    return min(value, limit)
