#!/usr/bin/env bash
# `npm run check:protocols`: the service against real clients nobody here wrote, on a fresh demo
# index (1,000 passages, the hashing embedder) served by `npm start`'s own entry point:
#   1. the Python MCP SDK (PyPI `mcp`) in its default mode, over Streamable HTTP and over stdio: it
#      must settle on protocol 2026-07-28, over HTTP with no request refused
#      (scripts/protocol/python_client.py);
#   2. the official MCP conformance suite (npm `@modelcontextprotocol/conformance`), the scenarios
#      that apply to a server of tools without resources, prompts, logging or completions, through
#      a proxy that adds the key (the suite's client sends none; scripts/protocol/key-proxy.mjs);
#   3. Schemathesis (PyPI) against GET /openapi.json: every operation, every check, a fixed seed
#      (scripts/protocol/schemathesis.toml, schemathesis_hooks.py).
# The Python packages go into a venv and the conformance suite into a prefix, both under .ci/
# (ignored by git), installed when missing. Needs the build (npm install or npm run build).
#
#   PROTOCOL_EXAMPLES   Schemathesis examples per operation and phase (default 50)
#   PROTOCOL_TOOLS_DIR  where the venv and the suite are installed (default .ci/protocol-tools)
set -euo pipefail
cd "$(dirname "$0")/../.."

SCHEMATHESIS_VERSION=4.32.5
MCP_PYTHON_VERSION=2.3.0
CONFORMANCE_VERSION=0.1.16
# The scenarios of the suite that apply here: the others exercise test tools, resources, prompts,
# logging, completions, sampling, elicitation or SSE streams this server does not offer.
SCENARIOS=(server-initialize ping tools-list dns-rebinding-protection)

tools="${PROTOCOL_TOOLS_DIR:-.ci/protocol-tools}"
venv="$tools/venv"
if ! "$venv/bin/python" -c "import schemathesis, mcp" 2>/dev/null; then
  echo "== installing schemathesis $SCHEMATHESIS_VERSION and mcp $MCP_PYTHON_VERSION (PyPI) into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" "mcp==$MCP_PYTHON_VERSION"
fi
conformance="$tools/conformance/node_modules/.bin/conformance"
if [ ! -x "$conformance" ]; then
  echo "== installing @modelcontextprotocol/conformance $CONFORMANCE_VERSION (npm) into $tools/conformance"
  mkdir -p "$tools/conformance"
  npm install --prefix "$tools/conformance" --no-audit --no-fund --no-package-lock --loglevel=error "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" >/dev/null
fi

data="$(mktemp -d)"
server_log="$data/server.log"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT

echo "== starting a server on a fresh demo index"
# No failure limiter in the way of thousands of keyless probes (Schemathesis checks every
# operation without a key too), and no 408 from a slow moment of a loaded machine.
DATA_DIR="$data" PORT=0 DEMO_PASSAGES=1000 EMBEDDER=hashing LOG_LEVEL=info AUTH_FAIL_LIMIT=100000000 SEARCH_TIMEOUT_MS=30000 \
  node packages/server/dist/start.js >"$server_log" 2>&1 &
pids+=($!)
for _ in $(seq 1 240); do
  if grep -q '^ess_' "$server_log" && grep -q 'listening on' "$server_log"; then break; fi
  sleep 0.5
done
base="$(grep -o 'listening on http://[0-9.:]*' "$server_log" | head -1 | sed 's/listening on //')"
key="$(grep -m1 '^ess_' "$server_log")"
if [ -z "$base" ] || [ -z "$key" ]; then
  echo "the server did not start:"; cat "$server_log"; exit 1
fi
echo "server at $base"

echo "== Python MCP SDK $MCP_PYTHON_VERSION (default mode) over Streamable HTTP and stdio"
"$venv/bin/python" scripts/protocol/python_client.py "$base" "$key" "$data"

echo "== MCP conformance suite $CONFORMANCE_VERSION: ${SCENARIOS[*]}"
proxy_port_file="$data/proxy.port"
node scripts/protocol/key-proxy.mjs "$base" "$key" >"$proxy_port_file" &
pids+=($!)
for _ in $(seq 1 50); do [ -s "$proxy_port_file" ] && break; sleep 0.1; done
for scenario in "${SCENARIOS[@]}"; do
  # The suite's DNS-rebinding scenario needs a localhost URL, which the proxy is.
  out="$("$conformance" server --url "http://localhost:$(cat "$proxy_port_file")/mcp" --scenario "$scenario" 2>&1)" || { echo "$out"; exit 1; }
  echo "$out" | grep -E 'SUCCESS|FAILURE|WARNING|Passed:' | sed 's/\x1b\[[0-9;]*m//g'
  if ! echo "$out" | grep -q ' 0 failed'; then echo "$out"; exit 1; fi
done

echo "== Schemathesis $SCHEMATHESIS_VERSION: every operation of /openapi.json, every check"
PYTHONPATH=scripts/protocol SCHEMATHESIS_HOOKS=schemathesis_hooks "$venv/bin/schemathesis" \
  --config-file scripts/protocol/schemathesis.toml run "$base/openapi.json" \
  --checks all -H "x-api-key: $key" --max-examples "${PROTOCOL_EXAMPLES:-50}" --no-color --wait-for-schema 30
