"""Berth: the booking backend."""
