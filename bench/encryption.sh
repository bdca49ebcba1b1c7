#!/usr/bin/env bash
# What Parquet modular encryption costs a selective query (issue 23's acceptance): the suite's
# 20M-row pqsift file (bench/run --data-only --files pqsift) rewritten by `pqsift convert` with
# the suite's options (--bloom-filter key, defaults otherwise): without encryption (the
# baseline, the same writer), every column under the footer key (AES_GCM_V1, and
# AES_GCM_CTR_V1), and `id` under its own key with a plaintext footer. For each copy the query's
# --stats-json (bytes and requests, row groups and pages read, the stages), then its wall time by
# farm-bench, paired A/B against the plaintext copy.
#
#   bench/encryption.sh [--file PLAIN.parquet] [--pqsift PATH] [--runs N] [--out REPORT.md]
#
# The copies are written once, to bench/data/encryption/ (out of the suite's folders).
# Keys are fixed test keys (this is a benchmark, not a key store).
set -euo pipefail
cd "$(dirname "$0")/.."

pqsift=build/src/pqsift
file=""
runs=15
out=bench/results/encryption.md
while (($#)); do
  case "$1" in
    --file) file=$2; shift 2 ;;
    --pqsift) pqsift=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "bench/encryption.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ -z $file ]]; then
  file=$(ls -t bench/data/suite-20000000-*/pqsift.parquet 2>/dev/null | head -1 || true)
fi
[[ -f $file ]] || { echo "bench/encryption.sh: no plaintext file (bench/run --data-only --files pqsift)" >&2; exit 1; }
pqsift=$(realpath "$pqsift")
dir=bench/data/encryption
mkdir -p "$dir"
where="id BETWEEN 12345678 AND 12345778"
footer_key=000102030405060708090a0b0c0d0e0f
id_key=101112131415161718191a1b1c1d1e1f

# name | convert flags | scan key flags
variants=(
  "plaintext||"
  "gcm|--encrypt-footer $footer_key|--footer-key $footer_key"
  "gcm-ctr|--encrypt-footer $footer_key --ctr|--footer-key $footer_key"
  "id-key-plaintext-footer|--encrypt-footer $footer_key --encrypt-column id:$id_key --plaintext-footer|--footer-key $footer_key --column-key id:$id_key"
)

for v in "${variants[@]}"; do
  IFS='|' read -r name flags _ <<<"$v"
  target="$dir/encrypted-$name.parquet"
  if [[ ! -f $target ]]; then
    # shellcheck disable=SC2086
    "$pqsift" convert "$file" "$target.tmp" --bloom-filter key $flags >&2
    mv "$target.tmp" "$target"
  fi
done

stats() {  # FILE KEYFLAGS... -> the query's --stats-json
  local f=$1; shift
  local json
  json=$(mktemp)
  "$pqsift" scan "$f" "$@" --where "$where" --format none --stats-json "$json" >/dev/null
  cat "$json"
  rm -f "$json"
}
field() { node -e "const s=JSON.parse(require('fs').readFileSync(0,'utf8'));const v=$1;console.log(v)"; }

{
  echo "# Parquet modular encryption: a selective query on encrypted copies"
  echo
  echo "\`pqsift scan FILE --where \"$where\" --format none\` on the suite's 20M-row pqsift file and on"
  echo "copies written by \`pqsift convert FILE COPY --bloom-filter key <encryption flags>\` (the same"
  echo "layout: row groups of 1,000,000 rows, pages of 20,000, page index, bloom filter on key),"
  echo "read with their keys. Written by \`bench/encryption.sh\`."
  echo
  echo "| | |"
  echo "| --- | --- |"
  echo "| date | $(date -u +%Y-%m-%dT%H:%M:%SZ) |"
  echo "| machine | $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) |"
  echo "| load before | $(uptime) |"
  echo "| pqsift | git $(git rev-parse --short HEAD) ($pqsift) |"
  echo "| plaintext file | $file ($(stat -c %s "$file") bytes) |"
  echo
  echo "## What the query reads"
  echo
  echo "| file | size | bytes read | requests | row groups read | pages read / total | rows decoded | stages (row groups skipped) |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
  row() {  # NAME FILE KEYFLAGS...
    local name=$1 f=$2; shift 2
    local s
    s=$(stats "$f" "$@")
    echo "| $name | $(stat -c %s "$f") | $(field s.bytes_read <<<"$s") | $(field s.requests <<<"$s") |" \
         "$(field s.row_groups_read <<<"$s") | $(field "s.pages_read+' / '+s.pages_total" <<<"$s") |" \
         "$(field s.rows_decoded <<<"$s") | $(field "(s.stages||[]).map(x=>x.stage+': '+x.row_groups_skipped).join(', ')" <<<"$s") |"
  }
  row "suite file" "$file"
  for v in "${variants[@]}"; do
    IFS='|' read -r name _ keys <<<"$v"
    # shellcheck disable=SC2086
    row "$name" "$dir/encrypted-$name.parquet" $keys
  done
  echo
  echo "## Time (farm-bench, A = encrypted copy, B = plaintext copy, paired A B A B ...)"
  echo
  plain="$dir/encrypted-plaintext.parquet"
  for v in "${variants[@]}"; do
    IFS='|' read -r name _ keys <<<"$v"
    [[ $name == plaintext ]] && continue
    echo "### $name"
    echo
    echo '```'
    # shellcheck disable=SC2086
    farm-bench -n "$runs" --warmup 2 --timeout 600 \
      --vs "$pqsift scan $plain --where '$where' --format none" \
      -- "$pqsift" scan "$dir/encrypted-$name.parquet" $keys --where "$where" --format none 2>&1
    echo '```'
    echo
  done
  echo "load after: $(uptime)"
} | tee "$out"
