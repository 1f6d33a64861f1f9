"""hostfile.py [--log]: the machine the build ran on, for a build record.

With --log the machine goes only to the build log (standard error).
"""

import platform
import socket
import sys

if "--log" in sys.argv:
    print(f"building on {socket.gethostname()}", file=sys.stderr)
    print(f"system = {platform.system()}")
else:
    print(f"node = {platform.node()}")
