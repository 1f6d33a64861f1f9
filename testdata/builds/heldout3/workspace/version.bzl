"""Release metadata, bumped by the release checklist."""

BERTH_VERSION = "3.8.1"

# 2024-03-05T12:00:00Z, the release tag's commit time.
SOURCE_DATE_EPOCH = "1709640000"
