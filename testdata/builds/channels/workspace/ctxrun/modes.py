"""modes.py OUT FILE...: the files' modes, for an install manifest."""

import os
import stat
import sys

out, files = sys.argv[1], sys.argv[2:]
with open(out, "w") as f:
    for name in files:
        f.write(f"{stat.S_IMODE(os.stat(name).st_mode):o} {name}\n")
