"""Writes COUNT random drift records to standard output, for tests."""

import argparse
import random
import struct
import sys
import zlib

RECORD = struct.Struct("<IBBHQdI")
MAGIC = 0x54465244  # "DRFT"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=16)
    parser.add_argument("--seed", type=int, help="seed of the generator (default: random)")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    out = sys.stdout.buffer
    t = 1_717_200_000_000_000_000
    for _ in range(args.count):
        t += rng.randrange(1_000_000, 5_000_000_000)
        value = rng.gauss(1.0, 0.25)
        payload = struct.pack("<Qd", t, value)
        out.write(RECORD.pack(MAGIC, 1, 0, len(payload), t, value, zlib.crc32(payload)))


if __name__ == "__main__":
    main()
