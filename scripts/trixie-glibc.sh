#!/usr/bin/env bash
# Debian 13 (trixie)'s glibc in a directory of the repository, for running Node with uWebSockets.js
# (@uwsjs/core 20.69 needs glibc 2.38) on a machine whose system glibc is older (Debian 12: 2.36).
# Nothing is installed over the system's libc: `apt-get download` fetches the libc6 package from
# the Debian registry through a private apt configuration (a trixie source list under DIR), and
# `dpkg-deb -x` unpacks it into DIR/root.
#
#   scripts/trixie-glibc.sh [DIR]          (default .glibc/, ignored by git)
#       prints the loader command to put before `node` (the package's own ld-linux, its lib
#       directory first, then the system's for every other library), e.g.
#         $(scripts/trixie-glibc.sh) "$(command -v node)" packages/server/dist/start.js
#   scripts/trixie-glibc.sh --node [DIR]
#       prints the path of DIR/bin/node: a copy of the `node` on PATH whose ELF interpreter and
#       rpath are that loader and lib directory (patchelf, Debian's package, installed with
#       apt-get when missing). Use it where Node starts Node (test workers, servers spawned by
#       tests): under the loader command process.execPath is the loader, and a child started
#       from it would not run.
# Run again, it reuses what it fetched and made.
set -euo pipefail
cd "$(dirname "$0")/.."
MAKE_NODE=0
if [ "${1:-}" = --node ]; then
  MAKE_NODE=1
  shift
fi
DIR="$(mkdir -p "${1:-.glibc}" && cd "${1:-.glibc}" && pwd)"
ROOT="$DIR/root"
LOADER="$ROOT/usr/lib64/ld-linux-x86-64.so.2"
LIBS="$ROOT/usr/lib/x86_64-linux-gnu"

if [ "$(uname -m)" != x86_64 ]; then
  echo "trixie-glibc: x86_64 only (this machine is $(uname -m))" >&2
  exit 1
fi

if [ ! -x "$LOADER" ]; then
  APT="$DIR/apt"
  mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/sources.list.d" "$DIR/deb"
  echo "deb http://deb.debian.org/debian trixie main" >"$APT/sources.list"
  : >"$APT/status"
  opts=(
    -o "Dir::Etc::SourceList=$APT/sources.list"
    -o "Dir::Etc::SourceParts=$APT/sources.list.d"
    -o "Dir::State::Lists=$APT/lists"
    -o "Dir::State::Status=$APT/status"
    -o "Dir::Cache=$APT/cache"
    -o "APT::Architecture=amd64"
    -o "Debug::NoLocking=1"
  )
  echo "trixie-glibc: apt-get update (trixie source list under $APT)" >&2
  apt-get "${opts[@]}" update -qq >&2
  echo "trixie-glibc: apt-get download libc6 (trixie)" >&2
  (cd "$DIR/deb" && apt-get "${opts[@]}" download libc6 >&2)
  deb="$(ls "$DIR"/deb/libc6_*_amd64.deb | head -n 1)"
  mkdir -p "$ROOT"
  dpkg-deb -x "$deb" "$ROOT"
  echo "trixie-glibc: unpacked $(basename "$deb") into $ROOT" >&2
fi

SYSTEM_LIBS=/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu
if [ "$MAKE_NODE" = 0 ]; then
  echo "$LOADER --library-path $LIBS:$SYSTEM_LIBS"
  exit 0
fi

NODE="$DIR/bin/node"
SOURCE="$(command -v node)"
if [ ! -x "$NODE" ] || [ "$(cat "$DIR/bin/node.source" 2>/dev/null)" != "$SOURCE $(stat -c %Y "$SOURCE")" ]; then
  if ! command -v patchelf >/dev/null; then
    echo "trixie-glibc: apt-get install patchelf" >&2
    apt-get install -y -qq --no-install-recommends patchelf >&2 || { apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends patchelf >&2; }
  fi
  mkdir -p "$DIR/bin"
  cp "$SOURCE" "$NODE.tmp"
  patchelf --set-interpreter "$LOADER" --force-rpath --set-rpath "$LIBS:$SYSTEM_LIBS" "$NODE.tmp"
  mv "$NODE.tmp" "$NODE"
  echo "$SOURCE $(stat -c %Y "$SOURCE")" >"$DIR/bin/node.source"
  echo "trixie-glibc: $NODE is $SOURCE ($("$NODE" --version)) on Debian 13's glibc" >&2
fi
echo "$NODE"
