"""modes_made.py FILE...: copies each file, then lists the copies' permissions."""

import os
import shutil
import sys
import tempfile

with tempfile.TemporaryDirectory() as scratch:
    for name in sys.argv[1:]:
        copy = os.path.join(scratch, os.path.basename(name))
        shutil.copyfile(name, copy)
        print(f"{os.path.basename(name)} {os.stat(copy).st_mode & 0o7777:04o}")
