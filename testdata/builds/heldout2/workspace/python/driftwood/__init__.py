"""Python bindings of driftwood's record format."""

import struct

from driftwood._version import __version__

RECORD = struct.Struct("<IBBHQdI")

__all__ = ["RECORD", "__version__"]
