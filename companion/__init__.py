"""Vegas Table Companion: a camera-and-tablet companion for the dice game Las Vegas."""

__version__ = "0.1.0"
