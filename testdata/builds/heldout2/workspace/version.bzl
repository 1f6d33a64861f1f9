"""Release constants shared by the BUILD files."""

VERSION = "1.4.2"

# The date of the release commit (2024-06-01 00:00 UTC), for everything that
# prints a date, so that a rebuild of the release writes the same bytes.
SOURCE_DATE_EPOCH = "1717200000"
