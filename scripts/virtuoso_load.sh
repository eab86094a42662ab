#!/usr/bin/env bash
# Bulk-load kg's N-Quads export into Virtuoso with its own loader, then check the counts.
#
#   scripts/virtuoso_load.sh DUMP_DIR ISQL_HOST:PORT SPARQL_URL [STORE]
#
# DUMP_DIR holds *.nq files written by `kg export --per-graph DUMP_DIR` (one per graph; gzipped
# *.nq.gz files too, and a graph may be spread over several files) and must be in Virtuoso's
# DirsAllowed; the administrator's account comes from $VIRTUOSO_USER and $VIRTUOSO_PASSWORD
# (default dba / dba), never from the command line. The graphs the dump names are cleared,
# then ld_dir + rdf_loader_run() load it and a checkpoint makes it durable. Then
# `kg check-load` compares each graph's quad count in the dump with the server's (exit 1 when one
# differs) and, given STORE (the embedded store the dump was exported from), `kg stats` of both
# are compared too (exit 1 when a count differs). Not atomic: a reader during the load sees the
# graphs emptied or half loaded (docs/stores.md).
set -euo pipefail
dump_dir=$(cd "${1:?DUMP_DIR}" && pwd)
isql_at=${2:?ISQL_HOST:PORT}
sparql=${3:?SPARQL_URL}
store=${4:-}
kg=${KG:-kg}
isql=${ISQL:-isql-vt}
user=${VIRTUOSO_USER:-dba}
password=${VIRTUOSO_PASSWORD:-dba}

shopt -s nullglob
files=("$dump_dir"/*.nq "$dump_dir"/*.nq.gz)
[ ${#files[@]} -gt 0 ] || { echo "virtuoso_load: no *.nq or *.nq.gz file in $dump_dir" >&2; exit 2; }

{
  # Each file is one graph (kg export --per-graph), the last IRI of its lines: read from its first line,
  # not from every line (a 100,000-paper dump is 1.6 GB). Every graph of the dump is emptied first.
  for file in "${files[@]}"; do zcat -f "$file" | head -n 1 | grep -o '<[^<>]*> \.$' || true; done |
    sort -u | sed 's/ \.$//; s/^/SPARQL CLEAR GRAPH /; s/$/;/'
  echo "DELETE FROM DB.DBA.load_list WHERE ll_file LIKE '$dump_dir/%';"
  echo "ld_dir('$dump_dir', '*.nq', 'urn:kg:bulk-load-default');"
  echo "ld_dir('$dump_dir', '*.nq.gz', 'urn:kg:bulk-load-default');"
  echo "rdf_loader_run();"
  echo "checkpoint;"
  echo "SELECT ll_file, ll_error FROM DB.DBA.load_list WHERE ll_file LIKE '$dump_dir/%' AND ll_error IS NOT NULL;"
} > "$dump_dir/load.sql"

started=$(date +%s%N)
output=$("$isql" "$isql_at" "$user" "$password" < "$dump_dir/load.sql" 2>&1) || { echo "$output" >&2; exit 2; }
if grep -q '\*\*\* Error' <<<"$output" || ! grep -q '^0 Rows' <<<"$output"; then
  echo "virtuoso_load: the loader reported errors:" >&2
  echo "$output" | tail -20 >&2
  exit 2
fi
echo "loaded ${#files[@]} file(s) in $(( ($(date +%s%N) - started) / 1000000 )) ms"

"$kg" check-load "$dump_dir" --store "$sparql" || exit 1
[ -n "$store" ] || exit 0
"$kg" stats --format json --store "$sparql" > "$dump_dir/stats-server.json"
"$kg" stats --format json --store "$store" > "$dump_dir/stats-embedded.json"
if ! diff "$dump_dir/stats-embedded.json" "$dump_dir/stats-server.json"; then
  echo "virtuoso_load: the counts differ (< embedded, > server)" >&2
  exit 1
fi
echo "counts match: $(tr -d ' \n' < "$dump_dir/stats-server.json")"
