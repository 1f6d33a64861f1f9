"""Accounts and their balances."""


def balance(entries):
    return sum(amount for _, amount in entries)
