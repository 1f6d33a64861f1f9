"""modes.py FILE...: copies each file's permissions into a manifest."""

import os
import sys

for name in sys.argv[1:]:
    print(f"{name} {os.stat(name).st_mode & 0o7777:04o}")
