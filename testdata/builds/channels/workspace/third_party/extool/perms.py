"""perms.py [--normalize] FILE...: a manifest of the files and their modes.

With --normalize the mode is 755 for executables and 644 for the rest.
"""

import os
import stat
import sys

normalize = sys.argv[1:2] == ["--normalize"]
for name in sys.argv[2 if normalize else 1:]:
    mode = os.stat(name).st_mode
    if normalize:
        mode = 0o755 if mode & stat.S_IXUSR else 0o644
    print(f"{stat.filemode(stat.S_IFREG | (mode & 0o777))} {name}")
