#!/bin/sh
# Applies pending migrations before the service restarts.
set -eu
exec /srv/berth/venv/bin/berth migrate --index /srv/berth/migrations.idx "$@"
