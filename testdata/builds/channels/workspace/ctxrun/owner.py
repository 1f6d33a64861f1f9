"""owner.py OUT: who owns the generated files."""

import os
import pwd
import sys

with open(sys.argv[1], "w") as f:
    f.write(f"owner = {pwd.getpwuid(os.geteuid()).pw_name}\n")
