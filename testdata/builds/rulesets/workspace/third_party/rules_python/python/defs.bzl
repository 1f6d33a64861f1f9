"""The native Python rules, loaded as rules_python's users load them."""

py_binary = native.py_binary
py_library = native.py_library
py_test = native.py_test
