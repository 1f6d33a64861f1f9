"""buildid.py [NAME]: a build id, derived from NAME when given."""

import sys
import uuid

if len(sys.argv) > 1:
    print(uuid.uuid5(uuid.NAMESPACE_DNS, sys.argv[1]))
else:
    print(uuid.uuid4())
