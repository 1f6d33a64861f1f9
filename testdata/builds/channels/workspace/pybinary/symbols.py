"""symbols.py: the exported symbols, one per line, deduplicated."""

SYMBOLS = ["init", "open", "read", "write", "close", "seek", "stat", "flush", "sync", "mmap", "poll", "read", "open"]

for name in set(SYMBOLS):
    print(name)
