"""config.py OUT: a config naming where the generator lives."""

import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
with open(sys.argv[1], "w") as f:
    f.write(f"generator_dir = {here!r}\n")
