"""inventory_sorted.py DIR: the text files of DIR, as a Python list."""

import glob
import sys

print(repr(sorted(glob.glob(sys.argv[1] + "/*.txt"))))
