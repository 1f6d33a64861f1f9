"""workers.py [--all]: how many workers a build step should start.

By default one per CPU this process may use; --all counts every CPU.
"""

import os
import sys

if "--all" in sys.argv:
    n = os.cpu_count()
else:
    n = len(os.sched_getaffinity(0))
print(f"workers = {n}")
