"""The table companion: bookkeeping, dice and automated opponents beside five physical games."""

__version__ = "0.1.0"
