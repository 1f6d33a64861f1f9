"""listing.py DIR [--sorted]: the files of DIR, one per line."""

import os
import sys

names = os.listdir(sys.argv[1])
if "--sorted" in sys.argv[2:]:
    names.sort()
for name in names:
    print(name)
