"""Reads the manifest the pkg_* rules write: a JSON list of entries."""

import json

ENTRY_IS_FILE = "file"
ENTRY_IS_SYMLINK = "symlink"


def read_entries(path):
    """Returns the manifest's entries, each a dict with type, dest and src."""
    with open(path, "r", encoding="utf-8") as f:
        return json.load(f)
