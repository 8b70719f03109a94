#!/usr/bin/env bash
# Put a backup.sh folder back: the database into DATABASE_URL (an empty database, or one to
# replace: what the dump holds is dropped first), the uploaded files into MEDIA_ROOT, then each
# guru's vectors, embedded again from its archive's chunks with the configured embedder.
# Stop the web, workers and beat first; run it where the backend runs, with its environment:
#   docker compose run --rm --no-deps init scripts/restore.sh /data/backups/2026-12-01
set -euo pipefail

src=${1:?usage: scripts/restore.sh BACKUP_DIR}
python=${PYTHON:-python}
: "${DATABASE_URL:?set DATABASE_URL (the PostgreSQL database to restore into)}"
for part in openguru.dump media.tar.gz gurus; do
  [ -e "$src/$part" ] || { echo "$src/$part is missing: not a backup.sh folder" >&2; exit 1; }
done
src=$(cd "$src" && pwd)
cd "$(dirname "$0")/.."  # backend/: manage.py
media=${MEDIA_ROOT:-$("$python" manage.py shell -c 'from django.conf import settings; print(settings.MEDIA_ROOT)')}

pg_restore --clean --if-exists --no-owner --no-privileges --exit-on-error \
  --dbname="$DATABASE_URL" "$src/openguru.dump"
# A backup of an older release gets this release's tables.
"$python" manage.py migrate --no-input
mkdir -p "$media"
tar -xzf "$src/media.tar.gz" -C "$media"
for archive in "$src"/gurus/*.zip; do
  [ -e "$archive" ] || continue  # no gurus
  "$python" manage.py guru_import "$archive" --vectors-only
done
echo "Restored from $src"
