#!/usr/bin/env bash
# Regenerates apps/server/src/cli/import-whaticket/fixtures/whaticket-v6-schema.sql: the
# schema a whaticket v6.6.1 backend creates, made by running the backend's own Sequelize
# migrations (backend/src/database/migrations) against a private PostgreSQL database and
# dumping the result. Not run in CI (it needs the npm registry and the whaticket sources);
# the dump it writes is the fixture the importer's tests load.
#
#   scripts/whaticket-schema-dump.sh [WHATICKET_GIT_DIR] [PG_ADMIN_URL]
#
# WHATICKET_GIT_DIR: a git repository of whaticket v6.6.1 (default: the bare mirror in
# /work/.mirror). PG_ADMIN_URL: a PostgreSQL that may create databases (default
# postgres://postgres@127.0.0.1:5432/postgres). Works in a temporary folder outside the
# repository: extracts the migrations, compiles them with esbuild, installs sequelize@5,
# sequelize-cli@5 and pg there (never into our package.json), runs `sequelize db:migrate`,
# then `pg_dump --schema-only --no-owner`.
set -euo pipefail

SOURCE=${1:-/work/.mirror/winlinux872+Whaticketv.6.6.1/repo}
ADMIN_URL=${2:-postgres://postgres@127.0.0.1:5432/postgres}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT="$ROOT/apps/server/src/cli/import-whaticket/fixtures/whaticket-v6-schema.sql"
WORK=$(mktemp -d /tmp/whaticket-schema.XXXXXX)
DB="whaticket_schema_$$"
BASE_URL=${ADMIN_URL%/*}

cleanup() {
  psql "$ADMIN_URL" -q -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "extracting the migrations of $(git -C "$SOURCE" rev-parse --short HEAD)"
git -C "$SOURCE" archive HEAD backend/src/database/migrations | tar -x -C "$WORK"

cd "$WORK"
cat >package.json <<'JSON'
{ "name": "whaticket-schema", "private": true }
JSON
npm install --no-audit --no-fund --silent sequelize@5 sequelize-cli@5 pg@8 esbuild@0.27 >/dev/null

mkdir -p migrations
npx esbuild backend/src/database/migrations/*.ts --outdir=migrations --format=cjs --platform=node --log-level=warning

cat >config.js <<JS
module.exports = { url: process.env.WHATICKET_DB_URL, dialect: 'postgres', logging: false };
JS
cat >.sequelizerc <<'JS'
const { resolve } = require('path');
module.exports = { config: resolve(__dirname, 'config.js'), 'migrations-path': resolve(__dirname, 'migrations') };
JS

psql "$ADMIN_URL" -q -c "CREATE DATABASE $DB"
# The last migration (20260128120000-add-id-to-TicketUsers) fails on PostgreSQL: the table
# 20260125000001 created already has its id column and sequence, so its transaction rolls back
# and leaves the schema as it was. A whaticket on PostgreSQL stays there; so does the dump.
# Any other failure stops the script.
if ! WHATICKET_DB_URL="$BASE_URL/$DB" npx sequelize db:migrate >migrate.log 2>&1; then
  if ! grep -q '20260128120000-add-id-to-TicketUsers: migrating' migrate.log || ! grep -q 'TicketUsers_id_seq" already exists' migrate.log; then
    tail -40 migrate.log
    exit 1
  fi
  echo "20260128120000-add-id-to-TicketUsers failed as it does on every PostgreSQL (TicketUsers already has its id)"
fi
echo "$(grep -c ': migrated' migrate.log) migrations applied"

{
  echo "-- whaticket v6.6.1 schema: made by scripts/whaticket-schema-dump.sh from the backend's own"
  echo "-- Sequelize migrations ($(git -C "$SOURCE" rev-parse HEAD)); regenerate, do not edit."
  pg_dump --schema-only --no-owner --no-privileges --no-comments "$BASE_URL/$DB" \
    | grep -v -e '^SET transaction_timeout' -e '^\\restrict' -e '^\\unrestrict' -e '^--' \
    | cat -s
} >"$OUT"
echo "wrote $OUT ($(wc -l <"$OUT") lines)"
