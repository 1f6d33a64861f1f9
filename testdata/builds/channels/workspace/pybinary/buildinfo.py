"""Writes build_info.json: when and by whom the build was made.

--time prints only the time; --user only the user. SOURCE_DATE_EPOCH, when
set, is the build's time.
"""

import datetime
import getpass
import json
import os
import sys


def build_time():
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return datetime.datetime.fromtimestamp(int(epoch), tz=datetime.timezone.utc)
    return datetime.datetime.now()


def main(argv):
    info = {}
    if "--user" not in argv:
        info["built_at"] = build_time().isoformat()
    if "--time" not in argv:
        info["built_by"] = getpass.getuser()
    json.dump(info, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
