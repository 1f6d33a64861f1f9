"""stamp.py OUT [--date YYYY-MM-DD]: a Python module with the version."""

import datetime
import sys

out = sys.argv[1]
if "--date" in sys.argv:
    when = datetime.datetime.strptime(sys.argv[sys.argv.index("--date") + 1], "%Y-%m-%d")
else:
    when = datetime.datetime.now()
with open(out, "w") as f:
    f.write(f'__version__ = "1.0.dev{when:%Y%m%d%H%M%S}"\n')
