#!/usr/bin/env bash
# A whole deployment's backup, into DEST (a folder, created; it must not hold a backup yet):
#   openguru.dump      the database: every row (pg_dump's custom format, of DATABASE_URL)
#   media.tar.gz       the uploaded files (MEDIA_ROOT)
#   gurus/<slug>.zip   each guru's archive (guru_export --all): its sources' chunks, which only
#                      the vector store holds; restore.sh embeds them again, nothing is fetched
# Run it where the backend runs, with its environment (docs/operations.md):
#   docker compose exec backend scripts/backup.sh /data/backups/2026-12-01
# Needs pg_dump of the server's major version or newer (the backend image has it).
set -euo pipefail

dest=${1:?usage: scripts/backup.sh DEST}
python=${PYTHON:-python}
: "${DATABASE_URL:?set DATABASE_URL (the PostgreSQL database to back up)}"
case "$DATABASE_URL" in
  postgres://* | postgresql://*) ;;
  *) echo "DATABASE_URL is not a PostgreSQL database: nothing for pg_dump" >&2; exit 1 ;;
esac
[ ! -e "$dest/openguru.dump" ] || { echo "$dest already holds a backup" >&2; exit 1; }
mkdir -p "$dest/gurus"
dest=$(cd "$dest" && pwd)
cd "$(dirname "$0")/.."  # backend/: manage.py
media=${MEDIA_ROOT:-$("$python" manage.py shell -c 'from django.conf import settings; print(settings.MEDIA_ROOT)')}

# The archives first: a source added while this runs is then in the dump without archived
# chunks, and restore.sh indexes it anew.
"$python" manage.py guru_export --all --out "$dest/gurus"
pg_dump --format=custom --file="$dest/openguru.dump" "$DATABASE_URL"
mkdir -p "$media"
tar -czf "$dest/media.tar.gz" -C "$media" .
echo "Backed up to $dest"
