#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster and Redis on 127.0.0.1 for fleet mode (tests, a by-hand
# two-node fleet). Needs the Debian packages: apt-get install -y postgresql redis-server.
# Prints the settings to export. Usage: scripts/fleet-stores.sh start|stop [DIR]
set -euo pipefail
action="${1:-start}"
dir="${2:-${FLEET_STORES_DIR:-/tmp/evidence-fleet-stores}}"
pg_port="${PG_PORT:-55432}"
redis_port="${REDIS_PORT:-56379}"
pg_bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
as_postgres=()
# PostgreSQL refuses to run as root: run it as the postgres user the package created
if [ "$(id -u)" = 0 ]; then as_postgres=(runuser -u postgres --); fi

case "$action" in
  start)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
    if [ ! -f "$dir/pg/PG_VERSION" ]; then
      "${as_postgres[@]}" "$pg_bin/initdb" -D "$dir/pg" -U postgres --auth=trust -E UTF8 >/dev/null
    fi
    if ! "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$dir/pg" status >/dev/null 2>&1; then
      "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$dir/pg" -l "$dir/pg.log" -w \
        -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $dir -c fsync=on" start >/dev/null
    fi
    "${as_postgres[@]}" "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -tAc \
      "SELECT 1 FROM pg_database WHERE datname = 'evidence'" | grep -q 1 ||
      "${as_postgres[@]}" "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres evidence
    if ! redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1; then
      redis-server --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no \
        --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
      for _ in $(seq 50); do redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
    fi
    echo "export DATABASE_URL=postgres://postgres@127.0.0.1:$pg_port/evidence"
    echo "export REDIS_URL=redis://127.0.0.1:$redis_port"
    ;;
  stop)
    redis-cli -h 127.0.0.1 -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true
    "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$dir/pg" -m fast stop >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: $0 start|stop [DIR]" >&2
    exit 2
    ;;
esac
