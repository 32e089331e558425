#!/usr/bin/env bash
# npm run bench:setup: the native load generators of bench:http and bench:peers (see
# bench/src/native-load.ts), installed from package registries:
#   wrk  closed-loop load, Debian's package (apt-get; root or sudo)
#   oha  open-loop load at a constant rate, crates.io (cargo install; compiles for several minutes)
# Each is skipped when already there. The Lucene peer needs no step here: the bench builds it
# (Maven, a JDK 21+) on first use.
set -euo pipefail

OHA_VERSION=1.16.0

as_root() {
  if [ "$(id -u)" = 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    echo "bench:setup: needs root (or sudo) for: $*" >&2
    return 1
  fi
}

if command -v wrk >/dev/null 2>&1; then
  echo "wrk: $(command -v wrk)"
elif command -v apt-get >/dev/null 2>&1; then
  echo "wrk: apt-get install wrk"
  as_root apt-get update -q
  as_root apt-get install -y -q wrk
else
  echo "wrk: no apt-get here; install the wrk package of your system (Homebrew: brew install wrk)" >&2
  exit 1
fi

oha_path="$(command -v oha 2>/dev/null || true)"
cargo_oha="${CARGO_HOME:-$HOME/.cargo}/bin/oha"
if [ -z "$oha_path" ] && [ -x "$cargo_oha" ]; then oha_path="$cargo_oha"; fi
if [ -n "$oha_path" ]; then
  echo "oha: $oha_path"
elif command -v cargo >/dev/null 2>&1; then
  echo "oha: cargo install --locked oha --version $OHA_VERSION (several minutes)"
  cargo install --locked oha --version "$OHA_VERSION"
else
  echo "oha: needs cargo (a Rust toolchain, rustup) to install: cargo install --locked oha --version $OHA_VERSION" >&2
  exit 1
fi
