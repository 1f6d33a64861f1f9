"""Reads the build's time from Bazel's volatile workspace status file."""


def get_timestamp(volatile_status_file):
    """Returns BUILD_TIMESTAMP (seconds since the epoch), or 0 without one."""
    with open(volatile_status_file, "r", encoding="utf-8") as status:
        for line in status:
            key, _, value = line.strip().partition(" ")
            if key == "BUILD_TIMESTAMP":
                return int(value)
    return 0
