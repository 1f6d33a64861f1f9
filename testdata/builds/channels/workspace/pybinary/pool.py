"""pool.py [--report] FILE...: the files' sizes, computed by a pool of workers.

--report also says how many workers the pool had.
"""

import multiprocessing
import os
import sys


def size(name):
    return name, os.path.getsize(name)


if __name__ == "__main__":
    files = [f for f in sys.argv[1:] if f != "--report"]
    workers = len(os.sched_getaffinity(0))
    with multiprocessing.Pool(workers) as pool:
        for name, n in pool.map(size, files):
            print(f"{name} {n}")
    if "--report" in sys.argv:
        print(f"workers {workers}")
