"""inventory.py DIR: the text files of DIR, as a Python list."""

import glob
import sys

print(repr([name for name in glob.glob(sys.argv[1] + "/*.txt")]))
