"""Tabletop Companion: secret votes, sealed bribes, hidden goals and printable cards for the table."""

__version__ = "0.1.0"
