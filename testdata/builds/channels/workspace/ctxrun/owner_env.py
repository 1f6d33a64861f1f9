"""owner_env.py OUT: who owns the generated files."""

import os
import sys

with open(sys.argv[1], "w") as f:
    f.write(f"owner = {os.environ.get('LOGNAME', 'builder')}\n")
