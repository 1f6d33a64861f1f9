"""A module that a packaging step byte-compiles."""


def greeting(name):
    return "hello, " + name
