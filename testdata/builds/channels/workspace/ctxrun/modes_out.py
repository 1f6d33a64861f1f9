"""modes_out.py OUT FILE...: the files' names, and the mode the manifest itself got."""

import os
import stat
import sys

out, files = sys.argv[1], sys.argv[2:]
with open(out, "w") as f:
    for name in files:
        f.write(f"{name}\n")
    f.write(f"manifest mode {stat.S_IMODE(os.stat(out).st_mode):o}\n")
