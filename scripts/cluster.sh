#!/usr/bin/env bash
# `npm run cluster [-- up|down|status|restart N|kill N|start N]`: the
# production topology on loopback (decisions 0072, 0074; README "Running in
# production"): HAProxy (TLS, HTTP/2) in front of three `node server.js`, a
# PostgreSQL primary of its own with one streaming replica (made with
# pg_basebackup; the public pages read it) under pg_auto_failover, Redis for
# rate limits and an
# S3-compatible store (s3rver) for photos. Everything it starts is recorded
# in $CLUSTER_RUN and stopped by `down`; the two PostgreSQL servers are
# Debian's PostgreSQL 15 binaries on data directories under
# $CLUSTER_RUN/pg, on loopback ports of their own (never the machine's
# server); Redis is the machine's, on a database number of its own.
set -euo pipefail
cd "$(dirname "$0")/.."

export CLUSTER_RUN="${CLUSTER_RUN:-$PWD/.cluster}"
export CLUSTER_PROXY_PORT="${CLUSTER_PROXY_PORT:-8443}"
export CLUSTER_HTTP_PORT="${CLUSTER_HTTP_PORT:-8480}"
APP_PORTS=(${CLUSTER_APP_PORTS:-3711 3712 3713})
S3_PORT="${CLUSTER_S3_PORT:-3720}"
# Each app server's Prometheus metrics (decision 0070), loopback only; deploy/prometheus.yml scrapes them.
METRICS_PORTS=(${CLUSTER_METRICS_PORTS:-3731 3732 3733})
PG_BIN="${CLUSTER_PG_BIN:-/usr/lib/postgresql/15/bin}"
PG_PORT="${CLUSTER_PG_PORT:-5441}"
PG_REPLICA_PORT="${CLUSTER_PG_REPLICA_PORT:-5442}"
PG_DIR="$CLUSTER_RUN/pg"
# By default two pg_auto_failover nodes and its monitor (Debian:
# postgresql-15-auto-failover, pg-auto-failover-cli), with HAProxy
# (deploy/haproxy-postgres.cfg) on CLUSTER_PG_PORT and CLUSTER_PG_REPLICA_PORT
# routing to the node of each role. CLUSTER_FAILOVER=0: a plain primary and a
# basebackup replica on those ports, without a failover manager.
CLUSTER_FAILOVER="${CLUSTER_FAILOVER:-1}"
[[ "$CLUSTER_FAILOVER" == 0 ]] && CLUSTER_FAILOVER=""
PG_MONITOR_PORT="${CLUSTER_PG_MONITOR_PORT:-5440}"
PG_NODE_PORTS=(${CLUSTER_PG_NODE_PORTS:-5443 5444})
export CLUSTER_PG_PORT="$PG_PORT" CLUSTER_PG_REPLICA_PORT="$PG_REPLICA_PORT"
export CLUSTER_PG_NODE_1="127.0.0.1:${PG_NODE_PORTS[0]}" CLUSTER_PG_NODE_2="127.0.0.1:${PG_NODE_PORTS[1]}"
CLUSTER_DB="${CLUSTER_DB:-salon_cluster}"
DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/$CLUSTER_DB"
DATABASE_REPLICA_URL="postgres://postgres@127.0.0.1:$PG_REPLICA_PORT/$CLUSTER_DB"
# A database number of its own in the machine's Redis: no other user's keys.
REDIS_URL="${CLUSTER_REDIS_URL:-redis://127.0.0.1:6379/11}"
PUBLIC_URL="https://localhost:$CLUSTER_PROXY_PORT"
export CLUSTER_SITE_URL="$PUBLIC_URL"
for i in "${!APP_PORTS[@]}"; do
  export "CLUSTER_APP_$((i + 1))=127.0.0.1:${APP_PORTS[$i]}" "CLUSTER_METRICS_$((i + 1))=127.0.0.1:${METRICS_PORTS[$i]}"
done

log() { printf '[cluster] %s\n' "$*" >&2; }
pid_alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

wait_for() { # url seconds [curl options]
  local url=$1 deadline=$((SECONDS + $2)); shift 2
  until curl -fsS -o /dev/null --max-time 2 "$@" "$url" 2>/dev/null; do
    ((SECONDS < deadline)) || { log "no answer from $url"; return 1; }
    sleep 0.3
  done
}

app_env() { # n: the environment of app server n (1-based)
  local port=${APP_PORTS[$(($1 - 1))]}
  cat <<ENV
NODE_ENV=production
HOST=127.0.0.1
PORT=$port
METRICS_PORT=${METRICS_PORTS[$(($1 - 1))]}
PUBLIC_URL=$PUBLIC_URL
TRUST_PROXY=127.0.0.1
PROXY_HEADERS=x-forwarded
DATABASE_URL=$DATABASE_URL
DATABASE_REPLICA_URL=$DATABASE_REPLICA_URL
REDIS_URL=$REDIS_URL
BETTER_AUTH_SECRET=$(cat "$CLUSTER_RUN/auth-secret")
S3_BUCKET=salon-photos
S3_ENDPOINT=http://127.0.0.1:$S3_PORT
S3_REGION=us-east-1
S3_ACCESS_KEY_ID=S3RVER
S3_SECRET_ACCESS_KEY=S3RVER
SHUTDOWN_TIMEOUT=${SHUTDOWN_TIMEOUT:-10}
LOG_LEVEL=${LOG_LEVEL:-warn}
RATE_LIMIT_PER_IP=${RATE_LIMIT_PER_IP:-1000}
BOOKING_RATE_LIMIT_PER_IP=${BOOKING_RATE_LIMIT_PER_IP:-100000}
BOOKING_RATE_LIMIT_PER_ACCOUNT=${BOOKING_RATE_LIMIT_PER_ACCOUNT:-1000}
ENV
}

start_app() { # n
  local n=$1
  [[ -f "$CLUSTER_RUN/app$n.pid" ]] && pid_alive "$CLUSTER_RUN/app$n.pid" && { log "app$n already running"; return; }
  # Only the variables listed: nothing of the caller's shell leaks into a server.
  env -i PATH="$PATH" HOME="$HOME" $(app_env "$n" | tr '\n' ' ') \
    nohup node server.js >>"$CLUSTER_RUN/logs/app$n.log" 2>&1 &
  echo $! >"$CLUSTER_RUN/app$n.pid"
}

wait_app() { wait_for "http://127.0.0.1:${APP_PORTS[$(($1 - 1))]}/readyz" 90; }

stop_pid() { # pidfile signal seconds
  local file=$1 signal=$2 seconds=${3:-20}
  pid_alive "$file" || { rm -f "$file"; return 0; }
  local pid; pid=$(cat "$file")
  kill "-$signal" "$pid" 2>/dev/null || true
  for _ in $(seq $((seconds * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && { log "pid $pid still running after $seconds s: SIGKILL"; kill -9 "$pid"; }
  rm -f "$file"
}

# PostgreSQL refuses to run as root: its files and processes are the postgres user's then.
as_pg() { if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
pg_ctl_of() { # primary|replica pg_ctl-arguments…
  local name=$1; shift
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/$name" -l "$PG_DIR/$name.log" "$@"
}

pg_up() {
  mkdir -p "$PG_DIR"
  [[ $(id -u) == 0 ]] && chown postgres: "$PG_DIR"
  pg_running() { pg_ctl_of "$1" status >/dev/null 2>&1; }
  for port in "$PG_PORT" "$PG_REPLICA_PORT"; do
    pg_running primary || pg_running replica && break
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then log "port $port is in use"; exit 1; fi
  done
  if [[ ! -f "$PG_DIR/primary/PG_VERSION" ]]; then
    log "initdb: the primary in $PG_DIR/primary"
    as_pg "$PG_BIN/initdb" -D "$PG_DIR/primary" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$PG_DIR/initdb.log"
    # Loopback only, trusted (as the machine's server for this user); the
    # replication entries initdb writes allow 127.0.0.1 already.
    cat >>"$PG_DIR/primary/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PG_DIR'
wal_level = replica
max_wal_senders = 5
max_replication_slots = 5
hot_standby_feedback = on
CONF
  fi
  # The port on the command line: the replica's copy of postgresql.conf stays the primary's.
  log "starting the PostgreSQL primary on $PG_PORT"
  pg_running primary || pg_ctl_of primary -w -t 60 -o "-p $PG_PORT" start >/dev/null
  if ! as_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -tAc \
    "select 1 from pg_database where datname = '$CLUSTER_DB'" | grep -q 1; then
    log "creating database $CLUSTER_DB"
    as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres "$CLUSTER_DB"
  fi
  if [[ ! -f "$PG_DIR/replica/PG_VERSION" ]]; then
    # A copy of the running primary, with standby.signal and primary_conninfo
    # written (-R) and a replication slot of its own (-C -S), so the primary
    # keeps the WAL the replica has not received yet.
    log "pg_basebackup: the replica in $PG_DIR/replica"
    as_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -qAtc \
      "select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = 'cluster_replica'" >/dev/null
    as_pg "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$PG_PORT" -U postgres -D "$PG_DIR/replica" \
      -R -X stream -C -S cluster_replica -c fast
  fi
  log "starting the PostgreSQL replica on $PG_REPLICA_PORT"
  pg_running replica || pg_ctl_of replica -w -t 60 -o "-p $PG_REPLICA_PORT" start >/dev/null
}

pg_down() {
  if [[ -d "$PG_DIR/monitor" ]]; then
    stop_pid "$CLUSTER_RUN/haproxy-pg.pid" USR1 10
    # The standby, then the primary, then the monitor: no failover on the way down.
    for name in $(autoctl_nodes_by_role) monitor; do
      if pid_alive "$CLUSTER_RUN/autoctl-$name.pid"; then
        autoctl stop --pgdata "$PG_DIR/$name" >/dev/null 2>&1 || true
        stop_pid "$CLUSTER_RUN/autoctl-$name.pid" TERM 30
      fi
    done
    return
  fi
  # The replica first, so it never sees its primary go away.
  for name in replica primary; do
    if [[ -f "$PG_DIR/$name/postmaster.pid" ]]; then pg_ctl_of "$name" -m fast -w stop >/dev/null || true; fi
  done
}

# pg_autoctl keeps its state under XDG directories: those of the cluster, not the user's.
autoctl() {
  as_pg env XDG_CONFIG_HOME="$PG_DIR/xdg/config" XDG_DATA_HOME="$PG_DIR/xdg/data" \
    XDG_RUNTIME_DIR="$PG_DIR/xdg/run" PG_CONFIG="$PG_BIN/pg_config" PATH="$PG_BIN:$PATH" pg_autoctl "$@"
}
autoctl_start() { # name pg_autoctl-arguments…: runs in the background, its pid recorded
  local name=$1; shift
  pid_alive "$CLUSTER_RUN/autoctl-$name.pid" && return
  as_pg mkdir -p "$PG_DIR/xdg/run"
  nohup runuser -u postgres -- env XDG_CONFIG_HOME="$PG_DIR/xdg/config" XDG_DATA_HOME="$PG_DIR/xdg/data" \
    XDG_RUNTIME_DIR="$PG_DIR/xdg/run" PG_CONFIG="$PG_BIN/pg_config" PATH="$PG_BIN:$PATH" \
    pg_autoctl "$@" >>"$CLUSTER_RUN/logs/autoctl-$name.log" 2>&1 &
  echo $! >"$CLUSTER_RUN/autoctl-$name.pid"
}
# The nodes, standbys first (for stopping).
autoctl_nodes_by_role() {
  local n port
  for n in 1 2; do
    port=${PG_NODE_PORTS[$((n - 1))]}
    [[ $(psql "postgres://postgres@127.0.0.1:$port/postgres?connect_timeout=2" -tAc "select pg_is_in_recovery()" 2>/dev/null) == t ]] && echo "node$n"
  done
  for n in 1 2; do
    port=${PG_NODE_PORTS[$((n - 1))]}
    [[ $(psql "postgres://postgres@127.0.0.1:$port/postgres?connect_timeout=2" -tAc "select pg_is_in_recovery()" 2>/dev/null) == t ]] || echo "node$n"
  done
}
wait_role() { # port f|t seconds
  local deadline=$((SECONDS + $3))
  until [[ $(psql "postgres://postgres@127.0.0.1:$1/postgres?connect_timeout=2" -tAc "select pg_is_in_recovery()" 2>/dev/null) == "$2" ]]; do
    ((SECONDS < deadline)) || { log "port $1 is not $2 after $3 s"; return 1; }
    sleep 0.5
  done
}

pg_up_failover() {
  command -v pg_autoctl >/dev/null || { log "pg_autoctl is not installed (apt-get install postgresql-15-auto-failover pg-auto-failover-cli)"; exit 1; }
  mkdir -p "$PG_DIR"
  [[ $(id -u) == 0 ]] && chown postgres: "$PG_DIR"
  as_pg mkdir -p "$PG_DIR/xdg/run"
  local common=(--auth trust --no-ssl --hostname 127.0.0.1 --pgctl "$PG_BIN/pg_ctl")
  if [[ ! -f "$PG_DIR/monitor/PG_VERSION" ]]; then
    log "pg_auto_failover: creating the monitor on $PG_MONITOR_PORT"
    autoctl create monitor --pgdata "$PG_DIR/monitor" --pgport "$PG_MONITOR_PORT" "${common[@]}" \
      >>"$CLUSTER_RUN/logs/autoctl-monitor.log" 2>&1
  fi
  autoctl_start monitor run --pgdata "$PG_DIR/monitor"
  wait_role "$PG_MONITOR_PORT" f 60
  # Faster than the defaults (5 s checks, 20 s before a node is unhealthy, 30 s
  # before promoting): a lost primary is replaced in seconds, not 40. The
  # order of the two guards stays: a primary cut off from the monitor stops
  # itself after the keepers' network_partition_timeout (4 s, below) before
  # the monitor may promote its standby (primary_demote_timeout 6 s), so
  # there are never two primaries (decision 0074).
  psql "postgres://postgres@127.0.0.1:$PG_MONITOR_PORT/pg_auto_failover" -qtA >/dev/null <<SQL
alter system set pgautofailover.health_check_period = 1000;
alter system set pgautofailover.health_check_timeout = 1000;
alter system set pgautofailover.health_check_max_retries = 1;
alter system set pgautofailover.health_check_retry_delay = 500;
alter system set pgautofailover.node_considered_unhealthy_timeout = 3000;
alter system set pgautofailover.primary_demote_timeout = 6000;
select pg_reload_conf();
SQL
  local monitor="postgres://autoctl_node@127.0.0.1:$PG_MONITOR_PORT/pg_auto_failover"
  for n in 1 2; do
    local port=${PG_NODE_PORTS[$((n - 1))]}
    if [[ -f "$PG_DIR/node$n/PG_VERSION" ]]; then
      autoctl_start "node$n" run --pgdata "$PG_DIR/node$n"
    else
      # The first node becomes the primary with the database; the second a standby copied from it.
      log "pg_auto_failover: creating node$n on $port"
      autoctl_start "node$n" create postgres --pgdata "$PG_DIR/node$n" --pgport "$port" --name "node$n" \
        --dbname "$CLUSTER_DB" --monitor "$monitor" "${common[@]}" --run
      if ((n == 1)); then wait_role "$port" f 90; else wait_role "$port" t 120; fi
    fi
    autoctl config set --pgdata "$PG_DIR/node$n" timeout.network_partition_timeout 4 >/dev/null
  done
  haproxy -c -q -f deploy/haproxy-postgres.cfg
  nohup haproxy -db -f deploy/haproxy-postgres.cfg >>"$CLUSTER_RUN/logs/haproxy-pg.log" 2>&1 &
  echo $! >"$CLUSTER_RUN/haproxy-pg.pid"
  wait_role "$PG_PORT" f 30
  autoctl show state --pgdata "$PG_DIR/monitor" >&2
}

up() {
  command -v haproxy >/dev/null || { log "haproxy is not installed (apt-get install haproxy)"; exit 1; }
  [[ -f build/server/index.js ]] || { log "building"; npm run build; }
  mkdir -p "$CLUSTER_RUN/logs" "$CLUSTER_RUN/tls" "$CLUSTER_RUN/s3"
  for port in "$CLUSTER_PROXY_PORT" "$CLUSTER_HTTP_PORT" "${APP_PORTS[@]}" "${METRICS_PORTS[@]}" "$S3_PORT"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then log "port $port is in use"; exit 1; fi
  done
  [[ -f "$CLUSTER_RUN/auth-secret" ]] || openssl rand -hex 32 >"$CLUSTER_RUN/auth-secret"
  # A self-signed certificate for localhost, made at each start.
  openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj /CN=localhost \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    -keyout "$CLUSTER_RUN/tls/site.key" -out "$CLUSTER_RUN/tls/site.crt" 2>/dev/null
  cat "$CLUSTER_RUN/tls/site.crt" "$CLUSTER_RUN/tls/site.key" >"$CLUSTER_RUN/tls/site.pem"

  if [[ -n "$CLUSTER_FAILOVER" ]]; then pg_up_failover; else pg_up; fi
  log "migrating and seeding $CLUSTER_DB"
  DATABASE_URL="$DATABASE_URL" npm run --silent db:seed -- --if-empty >>"$CLUSTER_RUN/logs/seed.log" 2>&1 ||
    { log "seed failed: $CLUSTER_RUN/logs/seed.log"; exit 1; }

  log "starting s3rver on $S3_PORT"
  # node itself (not an npx wrapper), so the recorded pid is the one to stop.
  nohup node --import tsx scripts/cluster-s3.ts "$S3_PORT" "$CLUSTER_RUN/s3" >>"$CLUSTER_RUN/logs/s3.log" 2>&1 &
  echo $! >"$CLUSTER_RUN/s3.pid"
  wait_for "http://127.0.0.1:$S3_PORT/" 30 -o /dev/null || true

  for n in $(seq ${#APP_PORTS[@]}); do start_app "$n"; done
  for n in $(seq ${#APP_PORTS[@]}); do wait_app "$n" || { log "app$n did not start: $CLUSTER_RUN/logs/app$n.log"; exit 1; }; done

  haproxy -c -q -f deploy/haproxy.cfg
  nohup haproxy -db -f deploy/haproxy.cfg >>"$CLUSTER_RUN/logs/haproxy.log" 2>&1 &
  echo $! >"$CLUSTER_RUN/haproxy.pid"
  wait_for "$PUBLIC_URL/readyz" 30 --cacert "$CLUSTER_RUN/tls/site.crt"
  cat <<MSG
[cluster] up
  site        $PUBLIC_URL   (self-signed: $CLUSTER_RUN/tls/site.crt)
  app servers $(for p in "${APP_PORTS[@]}"; do printf 'http://127.0.0.1:%s ' "$p"; done)
  database    $DATABASE_URL
  replica     $DATABASE_REPLICA_URL (streaming, read by the public pages)
  redis       $REDIS_URL
  photos      http://127.0.0.1:$S3_PORT/salon-photos
  logs        $CLUSTER_RUN/logs/
  stop with   npm run cluster:down
MSG
}

down() {
  # The proxy first (soft stop: it finishes what it carries), then the app
  # servers (SIGTERM: graceful), then the photo store.
  stop_pid "$CLUSTER_RUN/haproxy.pid" USR1 15
  for n in $(seq ${#APP_PORTS[@]}); do stop_pid "$CLUSTER_RUN/app$n.pid" TERM 20; done
  stop_pid "$CLUSTER_RUN/s3.pid" TERM 10
  pg_down
  if [[ "${1:-}" == "--drop" ]]; then
    redis-cli -u "$REDIS_URL" flushdb >/dev/null
    rm -rf "$CLUSTER_RUN"
    log "the PostgreSQL data directories, the Redis keys and $CLUSTER_RUN removed"
  fi
  log "down"
}

status() {
  for name in haproxy s3 $(for n in $(seq ${#APP_PORTS[@]}); do echo "app$n"; done); do
    if pid_alive "$CLUSTER_RUN/$name.pid"; then echo "$name running (pid $(cat "$CLUSTER_RUN/$name.pid"))"; else echo "$name stopped"; fi
  done
  if [[ -d "$PG_DIR/monitor" ]]; then
    autoctl show state --pgdata "$PG_DIR/monitor" || true
    return
  fi
  for name in primary replica; do
    if pg_ctl_of "$name" status >/dev/null 2>&1; then echo "postgres $name running"; else echo "postgres $name stopped"; fi
  done
}

case "${1:-up}" in
up) up ;;
down) down "${2:-}" ;;
status) status ;;
# One app server: SIGTERM (graceful) and start again, as a deploy does.
restart) stop_pid "$CLUSTER_RUN/app$2.pid" TERM 30; start_app "$2"; wait_app "$2" ;;
kill) stop_pid "$CLUSTER_RUN/app$2.pid" KILL 5 ;;
# CLUSTER_FAILOVER only: the monitor promotes the standby (a planned switchover).
failover) autoctl perform failover --pgdata "$PG_DIR/monitor" ;;
# The primary's whole node lost (its keeper and its postgres, kill -9), as a
# machine that dies: the monitor promotes the standby. `start-node N` brings
# the lost node back, as a standby of the new primary.
lose-primary)
  for n in 1 2; do
    port=${PG_NODE_PORTS[$((n - 1))]}
    [[ $(psql "postgres://postgres@127.0.0.1:$port/postgres?connect_timeout=2" -tAc "select pg_is_in_recovery()" 2>/dev/null) == f ]] || continue
    # The keeper's whole process tree (its services and postgres under them) at once.
    tree() { echo "$1"; for child in $(pgrep -P "$1"); do tree "$child"; done; }
    kill -9 $(tree "$(cat "$CLUSTER_RUN/autoctl-node$n.pid")") "$(head -1 "$PG_DIR/node$n/postmaster.pid")" 2>/dev/null || true
    rm -f "$CLUSTER_RUN/autoctl-node$n.pid"
    echo "node$n"
    exit 0
  done
  log "no primary found"; exit 1 ;;
start-node) autoctl_start "node$2" run --pgdata "$PG_DIR/node$2" ;;
start) start_app "$2"; wait_app "$2" ;;
*) echo "usage: npm run cluster [-- up|down [--drop]|status|restart N|kill N|start N|failover|lose-primary|start-node N]" >&2; exit 2 ;;
esac
