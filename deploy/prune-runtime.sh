#!/bin/sh
# Removes from the production node_modules what the server never reads at run time, so the image
# carries only code it runs: type definitions, source maps, TypeScript sources and documents of
# packages, the grammars node-sql-parser has for dialects Sextant does not parse with it (it loads
# one build per dialect: src/data/sql-parser.ts), the browser bundles of exceljs, and the sources and
# object files better-sqlite3 was compiled from, and native builds for the other C library (npm before
# 10.4 installs both of an optional pair such as DuckDB's glibc and musl bindings). Run in the image's build stage after `npm prune --omit=dev`.
set -eu
nm=${1:-node_modules}
find "$nm" -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \
  -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.tsbuildinfo' \
  -o -iname 'readme*' -o -iname 'changelog*' -o -iname 'history.md' -o -name '*.md' \) -delete
parser=$nm/node-sql-parser
if [ -d "$parser" ]; then
  rm -rf "$parser/umd" "$parser/index.js"
  for f in "$parser"/build/*.js; do
    case "$(basename "$f")" in postgresql.js|mysql.js|mariadb.js|sqlite.js) ;; *) rm -f "$f" ;; esac
  done
fi
rm -rf "$nm/exceljs/dist"
sqlite=$nm/better-sqlite3
if [ -d "$sqlite/build/Release" ]; then
  rm -rf "$sqlite/deps" "$sqlite/src" "$sqlite/build/Release/obj" "$sqlite/build/Release/obj.target" \
    "$sqlite/build/Release/.deps" "$sqlite/build/Release/test_extension.node" "$sqlite/build/deps"
fi
# The C library this image runs on decides which native builds stay.
if ls /lib/ld-musl-* > /dev/null 2>&1; then other='*-gnu'; else other='*-musl'; fi
find "$nm" -mindepth 1 -maxdepth 2 -type d -name "$other" -path '*linux*' -exec rm -rf {} +
