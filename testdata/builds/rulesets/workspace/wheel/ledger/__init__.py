"""Ledger keeps accounts."""

VERSION = "1.4.2"
