"""srcroot.py FILE: a config line naming FILE's directory."""

import os
import sys

print(f"srcroot = {os.path.dirname(os.path.abspath(sys.argv[1]))}")
