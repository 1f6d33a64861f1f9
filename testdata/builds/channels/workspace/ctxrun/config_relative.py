"""config_relative.py OUT: a config naming where the generator lives."""

import os
import sys

here = os.path.dirname(sys.argv[0])
with open(sys.argv[1], "w") as f:
    f.write(f"generator_dir = {here!r}\n")
