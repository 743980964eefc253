#!/usr/bin/env bash
# Local infrastructure for the integration tests: PostgreSQL 15 (Debian package), a
# single-node Apache Kafka 3.9.1 broker in KRaft mode, run from jars fetched from Maven Central,
# and an S3-compatible server (moto from PyPI, tools/scripts/moto.sh) for the S3 storage driver.
# No Docker: everything runs directly on this Debian 12 machine.
#
# Usage: deploy/local/infra.sh <command>
#   up           install what is missing, start PostgreSQL, Kafka and S3 (idempotent: reuses running ones)
#   down         stop S3, Kafka (SIGTERM, wait) and PostgreSQL
#   status       print the state of all three; exit 0 only if all are up
#   kafka-stop   stop only the broker (SIGTERM, SIGKILL after $KAFKA_STOP_TIMEOUT s); waits until the port is closed
#   kafka-start  start only the broker; waits for "Kafka Server started" and an open port
#   pg-stop      stop only PostgreSQL (fast shutdown); pg-start starts it again
#   s3-start     start only the S3 server (in memory: its buckets are gone when it stops); s3-stop stops it
#   env          print export lines:  eval "$(deploy/local/infra.sh env)"
#
# Environment:
#   DSAR_INFRA_DIR        runtime state (jars, Kafka data/logs/pid); default <repo>/.infra (gitignored)
#   PGPORT                PostgreSQL port (default 5432)
#   KAFKA_PORT            broker port (default 9092); KAFKA_CONTROLLER_PORT (default 9093)
#   KAFKA_STOP_TIMEOUT    seconds to wait after SIGTERM before SIGKILL (default 15)
#   KAFKA_START_TIMEOUT   seconds to wait for the broker to be ready (default 120)
#   S3_PORT               S3 server port (default 9000)
#
# Installing packages and starting/configuring PostgreSQL need root (or passwordless sudo).
# Once PostgreSQL is up and configured, `up` as any user only touches Kafka.
# -E: let the ERR trap below fire inside functions too.
set -Eeuo pipefail

SELF="$(readlink -f "${BASH_SOURCE[0]}")"
HERE="$(dirname "$SELF")"
REPO="$(cd "$HERE/../.." && pwd)"
INFRA_DIR="${DSAR_INFRA_DIR:-$REPO/.infra}"
KDIR="$INFRA_DIR/kafka"

PG_VERSION=15
PG_CLUSTER=main
PG_PORT="${PGPORT:-5432}"
PG_MAX_CONNECTIONS=200 # the tests open many pools
DB_USER=dsar
DB_PASS=dsar
DB_NAME=dsar
DB_TEST_NAME=dsar_test
PG_LOG="/var/log/postgresql/postgresql-$PG_VERSION-$PG_CLUSTER.log"

KAFKA_HOST=127.0.0.1
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-15}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-120}"
KAFKA_PIDFILE="$KDIR/kafka.pid"
KAFKA_LOG="$KDIR/logs/server.log"   # written by log4j (see kafka/log4j.properties)
KAFKA_OUT="$KDIR/logs/kafka.out"    # JVM stdout/stderr (crashes before log4j is up land here)
KAFKA_CONF="$KDIR/server.properties"
# Written into server.log before each launch, so readiness checks only look at the current run.
KAFKA_START_MARK='=== infra.sh: broker launch ==='
KAFKA_JVM_OPTS=(-Xms256m -Xmx768m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError
  -Djava.awt.headless=true)

S3DIR="$INFRA_DIR/s3"
S3_HOST=127.0.0.1
S3_PORT="${S3_PORT:-9000}"
S3_PIDFILE="$S3DIR/moto.pid"
S3_LOG="$S3DIR/moto.log"            # the server's stdout/stderr (one line per request)
S3_START_TIMEOUT=60

DATABASE_URL="postgres://$DB_USER:$DB_PASS@127.0.0.1:$PG_PORT/$DB_NAME"
KAFKA_BROKERS="$KAFKA_HOST:$KAFKA_PORT"
S3_URL="http://$S3_HOST:$S3_PORT"

# ---------------------------------------------------------------------------------------------
# helpers

say() { echo "$*"; }
die() { echo "infra.sh: ERROR: $*" >&2; exit 1; }
# set -e exits silently on an unexpected failure; say where it happened.
trap 'rc=$?; echo "infra.sh: command failed (exit $rc) at line $LINENO: $BASH_COMMAND" >&2' ERR

# Print the last lines of a log file to stderr (used on every failure path).
dump_log() {
  local file="$1" lines="${2:-40}"
  if [ -r "$file" ] && [ ! -s "$file" ]; then
    return 0 # empty: nothing worth printing
  elif [ -r "$file" ]; then
    echo "----- last $lines lines of $file -----" >&2
    tail -n "$lines" "$file" >&2 || true
    echo "-----" >&2
  elif [ -e "$file" ]; then
    echo "(cannot read $file as $(id -un))" >&2
  fi
}

can_sudo() { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif can_sudo; then sudo -n "$@"
  else die "root (or passwordless sudo) is needed to run: $*"
  fi
}

# PostgreSQL superuser access through the local socket (peer auth as the `postgres` OS user).
as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"
  elif [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"
  elif can_sudo; then sudo -n -u postgres "$@"
  else die "need to run as root, postgres or with passwordless sudo to run: $*"
  fi
}

APT_UPDATED=0
apt_install() {
  mkdir -p "$INFRA_DIR"
  local log="$INFRA_DIR/apt.log"
  # Only refresh the package lists when we actually have to install something.
  if [ "$APT_UPDATED" -eq 0 ]; then
    say "apt: updating package lists (needed to install: $*)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >"$log" 2>&1 \
      || { dump_log "$log"; die "apt-get update failed"; }
    APT_UPDATED=1
  fi
  say "apt: installing $*"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >>"$log" 2>&1 \
    || { dump_log "$log"; die "apt-get install $* failed"; }
}

# True if something accepts TCP connections on 127.0.0.1:$1.
port_open() {
  timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
}

# True if the pid exists and is not a zombie (in containers PID 1 may not reap orphans).
pid_alive() {
  local pid="$1" state
  [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 1
  state="$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)" || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}

# ---------------------------------------------------------------------------------------------
# PostgreSQL

pg_client_ok() {
  # Can the test user log in over TCP? This is exactly what DATABASE_URL needs.
  command -v psql >/dev/null 2>&1 &&
    PGPASSWORD="$DB_PASS" PGCONNECT_TIMEOUT=3 psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U "$DB_USER" -d "$1" \
      -tAc 'select 1' >/dev/null 2>&1
}

pg_is_ready() {
  command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p "$PG_PORT" -t 3
}

# Fast path for repeated `up`: everything already in place, no root needed.
pg_fully_ready() {
  pg_is_ready && pg_client_ok "$DB_NAME" && pg_client_ok "$DB_TEST_NAME" || return 1
  local max
  max="$(PGPASSWORD="$DB_PASS" psql -X -h 127.0.0.1 -p "$PG_PORT" -U "$DB_USER" -d "$DB_NAME" -tAc \
    "select current_setting('max_connections')::int >= $PG_MAX_CONNECTIONS and rolsuper from pg_roles where rolname = current_user" 2>/dev/null)" || return 1
  [ "$max" = t ]
}

# "online", "down", "online,recovery", ... or empty if the cluster does not exist.
pg_cluster_state() {
  command -v pg_lsclusters >/dev/null 2>&1 || return 0
  pg_lsclusters -h 2>/dev/null | awk -v v="$PG_VERSION" -v c="$PG_CLUSTER" '$1 == v && $2 == c { print $4 }'
}

# Set one postgresql.conf parameter if it differs; returns 0 if it changed something.
pg_set_conf() {
  local key="$1" want="$2" have
  have="$(pg_conftool -s "$PG_VERSION" "$PG_CLUSTER" show "$key" 2>/dev/null || true)"
  have="${have#\'}"; have="${have%\'}"
  [ "$have" = "$want" ] && return 1
  as_root pg_conftool "$PG_VERSION" "$PG_CLUSTER" set "$key" "$want"
  return 0
}

pg_up() {
  if pg_fully_ready; then
    say "postgres: already running on 127.0.0.1:$PG_PORT (databases $DB_NAME, $DB_TEST_NAME)"
    return 0
  fi

  # 1. Package. Debian's postgresql-common creates and configures cluster 15/main on install.
  if [ ! -x "/usr/lib/postgresql/$PG_VERSION/bin/postgres" ] || ! command -v pg_ctlcluster >/dev/null 2>&1; then
    apt_install postgresql "postgresql-$PG_VERSION" "postgresql-client-$PG_VERSION"
  fi
  # 2. Cluster (missing if postgresql-common was told not to create one, or it was dropped).
  #    C.UTF-8 always exists on Debian 12; without it a bare container would get SQL_ASCII.
  if [ ! -f "/etc/postgresql/$PG_VERSION/$PG_CLUSTER/postgresql.conf" ]; then
    say "postgres: creating cluster $PG_VERSION/$PG_CLUSTER"
    as_root pg_createcluster --locale C.UTF-8 -p "$PG_PORT" "$PG_VERSION" "$PG_CLUSTER" >/dev/null
  fi

  # 3. Settings. 'localhost' = 127.0.0.1 (and ::1 where available). Changes need a restart.
  local changed=0
  pg_set_conf port "$PG_PORT" && changed=1
  pg_set_conf listen_addresses localhost && changed=1
  pg_set_conf max_connections "$PG_MAX_CONNECTIONS" && changed=1

  # 4. Start (or restart to apply new settings). --skip-systemctl-redirect: start the postmaster
  #    directly, so this works both with and without systemd as PID 1.
  local state
  state="$(pg_cluster_state)"
  if [[ "$state" == online* ]]; then
    if [ "$changed" -eq 1 ]; then
      say "postgres: restarting to apply settings"
      as_root pg_ctlcluster --skip-systemctl-redirect "$PG_VERSION" "$PG_CLUSTER" restart \
        || { dump_log "$PG_LOG"; die "PostgreSQL restart failed"; }
    fi
  else
    say "postgres: starting cluster $PG_VERSION/$PG_CLUSTER"
    as_root pg_ctlcluster --skip-systemctl-redirect "$PG_VERSION" "$PG_CLUSTER" start \
      || { dump_log "$PG_LOG"; die "PostgreSQL start failed"; }
  fi
  local _
  for _ in $(seq 1 30); do pg_is_ready && break; sleep 1; done
  pg_is_ready || { dump_log "$PG_LOG"; die "PostgreSQL does not accept connections on 127.0.0.1:$PG_PORT"; }

  # 5. Role and databases, idempotently. SUPERUSER: tests create schemas/triggers and one test
  #    bypasses a trigger as owner. ALTER re-applies the password in case it was changed.
  as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$PG_PORT" -d postgres >/dev/null <<SQL \
    || { dump_log "$PG_LOG"; die "creating role/databases failed"; }
SELECT 'CREATE ROLE $DB_USER' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$DB_USER') \gexec
ALTER ROLE $DB_USER WITH LOGIN SUPERUSER PASSWORD '$DB_PASS';
SELECT 'CREATE DATABASE $DB_NAME OWNER $DB_USER ENCODING ''UTF8'' LC_COLLATE ''C.UTF-8'' LC_CTYPE ''C.UTF-8'' TEMPLATE template0'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$DB_NAME') \gexec
SELECT 'CREATE DATABASE $DB_TEST_NAME OWNER $DB_USER ENCODING ''UTF8'' LC_COLLATE ''C.UTF-8'' LC_CTYPE ''C.UTF-8'' TEMPLATE template0'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$DB_TEST_NAME') \gexec
SQL

  # 6. End-to-end check with the same credentials the tests use (catches pg_hba problems).
  pg_fully_ready || { dump_log "$PG_LOG"; die "cannot log in as $DB_USER on 127.0.0.1:$PG_PORT (check pg_hba.conf)"; }
  say "postgres: up on 127.0.0.1:$PG_PORT (databases $DB_NAME, $DB_TEST_NAME)"
}

pg_down() {
  local state
  state="$(pg_cluster_state)"
  if [[ "$state" != online* ]]; then
    say "postgres: not running"
    return 0
  fi
  # pg_ctlcluster stops in "fast" mode by default and waits for the postmaster to exit.
  as_root pg_ctlcluster --skip-systemctl-redirect "$PG_VERSION" "$PG_CLUSTER" stop \
    || { dump_log "$PG_LOG"; die "PostgreSQL stop failed"; }
  say "postgres: stopped"
}

# ---------------------------------------------------------------------------------------------
# Kafka

ensure_java() {
  command -v java >/dev/null 2>&1 || apt_install default-jre-headless
}

# Download the broker classpath once. The marker holds the pom's checksum, so editing the pom
# (e.g. a version bump) triggers a re-fetch, and an interrupted download is never mistaken for
# a complete one (jars go to lib.partial first).
kafka_fetch_jars() {
  local marker="$KDIR/lib/.complete" sum
  sum="$(sha256sum "$HERE/kafka/pom.xml" | cut -d' ' -f1)"
  if [ -f "$marker" ] && [ "$(cat "$marker")" = "$sum" ]; then
    return 0
  fi
  command -v mvn >/dev/null 2>&1 || apt_install maven
  say "kafka: fetching broker jars from Maven Central (first run only)"
  rm -rf "${KDIR:?}/lib.partial"
  mkdir -p "$KDIR/logs"
  mvn -B -q -f "$HERE/kafka/pom.xml" dependency:copy-dependencies \
    -Dkafka.lib.dir="$KDIR/lib.partial" >"$KDIR/logs/mvn.log" 2>&1 \
    || { dump_log "$KDIR/logs/mvn.log"; die "mvn could not fetch the Kafka jars"; }
  ls "$KDIR"/lib.partial/kafka_2.13-*.jar >/dev/null 2>&1 || die "mvn ran but kafka_2.13 jar is missing in $KDIR/lib.partial"
  echo "$sum" >"$KDIR/lib.partial/.complete"
  rm -rf "${KDIR:?}/lib"
  mv "$KDIR/lib.partial" "$KDIR/lib"
}

# Render the config templates; cheap, so done on every start (picks up template edits).
kafka_render_config() {
  mkdir -p "$KDIR/data" "$KDIR/logs"
  sed -e "s#@DATA_DIR@#$KDIR/data#g" -e "s#@PORT@#$KAFKA_PORT#g" -e "s#@CONTROLLER_PORT@#$KAFKA_CONTROLLER_PORT#g" \
    "$HERE/kafka/server.properties" >"$KAFKA_CONF.tmp"
  mv "$KAFKA_CONF.tmp" "$KAFKA_CONF"
  cp "$HERE/kafka/log4j.properties" "$KDIR/log4j.properties"
}

kafka_java() {
  java "-Dlog4j.configuration=file:$KDIR/log4j.properties" "-Dkafka.logs.dir=$KDIR/logs" -cp "$KDIR/lib/*" "$@"
}

# KRaft needs the log dir formatted with a cluster id. Only ever done once: reformatting would
# throw away the data that must survive kafka-stop/kafka-start.
kafka_format_storage() {
  [ -f "$KDIR/data/meta.properties" ] && return 0
  say "kafka: formatting storage in $KDIR/data"
  local cid
  cid="$(kafka_java kafka.tools.StorageTool random-uuid 2>>"$KAFKA_OUT" | tail -n 1)"
  [ -n "$cid" ] || { dump_log "$KAFKA_OUT"; die "kafka: could not generate a cluster id"; }
  kafka_java kafka.tools.StorageTool format -t "$cid" -c "$KAFKA_CONF" --ignore-formatted >>"$KAFKA_OUT" 2>&1 \
    || { dump_log "$KAFKA_OUT"; dump_log "$KAFKA_LOG"; die "kafka: storage format failed"; }
}

# Is this pid our broker (same config file), not some reused pid or another checkout's broker?
kafka_pid_is_ours() {
  local pid="$1"
  pid_alive "$pid" || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "kafka.Kafka $KAFKA_CONF"
}

# Prints the broker's pid if it is running. Re-adopts a broker whose pid file was lost.
kafka_pid() {
  local pid=""
  [ -f "$KAFKA_PIDFILE" ] && pid="$(cat "$KAFKA_PIDFILE" 2>/dev/null || true)"
  if kafka_pid_is_ours "$pid"; then echo "$pid"; return 0; fi
  # Scan /proc instead of pgrep: procps is not installed on minimal Debian images.
  local d p
  for d in /proc/[0-9]*; do
    p="${d#/proc/}"
    grep -qaF -- "$KAFKA_CONF" "$d/cmdline" 2>/dev/null || continue
    if kafka_pid_is_ours "$p"; then
      echo "$p" >"$KAFKA_PIDFILE" 2>/dev/null || true
      echo "$p"
      return 0
    fi
  done
  return 1
}

# Did the current run (lines after the last launch marker) log the readiness message?
# Has the broker logged "Kafka Server started" since the last launch mark? log4j rolls server.log at 20 MB
# (kafka/log4j.properties), counting what the file already held, and a busy broker can roll it twice in the minute
# between its launch and that line: when the mark is no longer in server.log, the rolled files are read too, oldest
# first. A "started" line counts only after the mark (an older one belongs to a previous run).
kafka_logged_started() {
  local files=("$KAFKA_LOG") f
  grep -qF -- "$KAFKA_START_MARK" "$KAFKA_LOG" 2>/dev/null || files=("$KAFKA_LOG.2" "$KAFKA_LOG.1" "$KAFKA_LOG")
  for f in "${files[@]}"; do [ -r "$f" ] && cat "$f"; done |
    awk -v mark="$KAFKA_START_MARK" 'index($0, mark) { marked = 1; seen = 0 } marked && /Kafka Server started/ { seen = 1 } END { exit !seen }'
}

kafka_fail() {
  dump_log "$KAFKA_OUT" 20
  # Only the current run's part of server.log (after the last launch marker) is relevant.
  if [ -r "$KAFKA_LOG" ]; then
    echo "----- $KAFKA_LOG (current run, last 40 lines) -----" >&2
    awk -v mark="$KAFKA_START_MARK" 'index($0, mark) { n = 0; delete buf } { buf[++n] = $0 }
      END { for (i = (n > 40 ? n - 39 : 1); i <= n; i++) print buf[i] }' "$KAFKA_LOG" >&2 || true
    echo "-----" >&2
  fi
  die "$*"
}

kafka_wait_ready() {
  local pid="$1" deadline=$((SECONDS + KAFKA_START_TIMEOUT))
  while :; do
    pid_alive "$pid" || kafka_fail "kafka: broker process $pid exited during startup"
    if kafka_logged_started && port_open "$KAFKA_PORT"; then return 0; fi
    [ "$SECONDS" -lt "$deadline" ] || kafka_fail "kafka: not ready after ${KAFKA_START_TIMEOUT}s (pid $pid)"
    sleep 0.5
  done
}

kafka_start() {
  local pid
  if pid="$(kafka_pid)"; then
    # Already running (maybe still starting): just make sure it is ready.
    kafka_wait_ready "$pid"
    say "kafka: already running on $KAFKA_BROKERS (pid $pid)"
    return 0
  fi
  if port_open "$KAFKA_PORT" || port_open "$KAFKA_CONTROLLER_PORT"; then
    die "kafka: port $KAFKA_PORT or $KAFKA_CONTROLLER_PORT is already used by another process: $(ss -Hltnp 2>/dev/null | grep -E ":($KAFKA_PORT|$KAFKA_CONTROLLER_PORT)\b" | tr -s ' ' || true)"
  fi

  ensure_java
  kafka_fetch_jars
  kafka_render_config
  kafka_format_storage

  echo "$KAFKA_START_MARK $(date -Is)" >>"$KAFKA_LOG"
  rm -f "$KAFKA_PIDFILE"
  # setsid: own session, so the broker survives the calling shell/test runner and its signals.
  # The inner bash writes its own pid and then execs java, so the pid file holds the JVM's pid.
  # stdin from /dev/null and no inherited fds beyond stdout/stderr (-> kafka.out).
  # shellcheck disable=SC2016 # $$ and $@ are meant for the inner bash
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$KAFKA_PIDFILE" \
    java "${KAFKA_JVM_OPTS[@]}" "-Dlog4j.configuration=file:$KDIR/log4j.properties" "-Dkafka.logs.dir=$KDIR/logs" \
    -cp "$KDIR/lib/*" kafka.Kafka "$KAFKA_CONF" \
    </dev/null >"$KAFKA_OUT" 2>&1 &
  local _
  for _ in $(seq 1 50); do [ -s "$KAFKA_PIDFILE" ] && break; sleep 0.1; done
  pid="$(cat "$KAFKA_PIDFILE" 2>/dev/null || true)"
  [ -n "$pid" ] || kafka_fail "kafka: launcher did not write $KAFKA_PIDFILE"
  kafka_wait_ready "$pid"
  say "kafka: up on $KAFKA_BROKERS (pid $pid)"
}

kafka_stop() {
  local pid
  if ! pid="$(kafka_pid)"; then
    rm -f "$KAFKA_PIDFILE"
    say "kafka: not running"
    return 0
  fi
  # SIGTERM = controlled shutdown (flushes logs, clean restart without log recovery).
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + KAFKA_STOP_TIMEOUT))
  while pid_alive "$pid" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.2; done
  if pid_alive "$pid"; then
    say "kafka: still running ${KAFKA_STOP_TIMEOUT}s after SIGTERM, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    deadline=$((SECONDS + 10))
    while pid_alive "$pid" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
    pid_alive "$pid" && die "kafka: pid $pid survived SIGKILL"
  fi
  # The kernel closes the listening sockets with the process; wait so a caller can rely on
  # "connection refused" right after we return.
  deadline=$((SECONDS + 10))
  while { port_open "$KAFKA_PORT" || port_open "$KAFKA_CONTROLLER_PORT"; } && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
  port_open "$KAFKA_PORT" && die "kafka: port $KAFKA_PORT still open after the broker exited"
  rm -f "$KAFKA_PIDFILE"
  say "kafka: stopped"
}

kafka_is_up() {
  local pid
  pid="$(kafka_pid)" && port_open "$KAFKA_PORT" && echo "$pid"
}

# ---------------------------------------------------------------------------------------------
# S3 (moto in server mode: an S3-compatible endpoint for the S3 storage driver's tests)

# Is this pid our server: `<python> <...>/moto_server -H $S3_HOST -p $S3_PORT` (not a reused pid, nor a grep for it)?
s3_pid_is_ours() {
  local pid="$1" args=()
  pid_alive "$pid" || return 1
  mapfile -d '' args 2>/dev/null <"/proc/$pid/cmdline" || return 1
  [[ "${args[1]:-}" == */moto_server ]] && [ "${args[*]:2}" = "-H $S3_HOST -p $S3_PORT" ]
}

# Prints the server's pid if it is running. Re-adopts a server whose pid file was lost.
s3_pid() {
  local pid="" d p
  [ -f "$S3_PIDFILE" ] && pid="$(cat "$S3_PIDFILE" 2>/dev/null || true)"
  if s3_pid_is_ours "$pid"; then echo "$pid"; return 0; fi
  for d in /proc/[0-9]*; do
    p="${d#/proc/}"
    grep -qaF -- moto_server "$d/cmdline" 2>/dev/null || continue
    if s3_pid_is_ours "$p"; then
      mkdir -p "$S3DIR"
      echo "$p" >"$S3_PIDFILE" 2>/dev/null || true
      echo "$p"
      return 0
    fi
  done
  return 1
}

# Does it answer S3 requests (ListBuckets), not only accept connections?
s3_answers() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsS -o /dev/null --max-time 3 "$S3_URL/" 2>/dev/null
  else
    port_open "$S3_PORT"
  fi
}

s3_start() {
  local pid
  if pid="$(s3_pid)"; then
    local deadline=$((SECONDS + S3_START_TIMEOUT))
    until s3_answers; do
      [ "$SECONDS" -lt "$deadline" ] || { dump_log "$S3_LOG"; die "s3: pid $pid does not answer on $S3_URL"; }
      sleep 0.3
    done
    say "s3: already running on $S3_URL (pid $pid)"
    return 0
  fi
  if port_open "$S3_PORT"; then
    die "s3: port $S3_PORT is already used by another process: $(ss -Hltnp 2>/dev/null | grep -E ":$S3_PORT\b" | tr -s ' ' || true)"
  fi
  local server
  server="$(bash "$REPO/tools/scripts/moto.sh" path)" || die "s3: installing moto failed (tools/scripts/moto.sh)"
  mkdir -p "$S3DIR"
  rm -f "$S3_PIDFILE"
  # As for Kafka: own session (survives the caller), pid file written by the shell that execs the server.
  # shellcheck disable=SC2016 # $$ and $@ are meant for the inner bash
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$S3_PIDFILE" \
    "$server" -H "$S3_HOST" -p "$S3_PORT" </dev/null >"$S3_LOG" 2>&1 &
  local _
  for _ in $(seq 1 50); do [ -s "$S3_PIDFILE" ] && break; sleep 0.1; done
  pid="$(cat "$S3_PIDFILE" 2>/dev/null || true)"
  [ -n "$pid" ] || { dump_log "$S3_LOG"; die "s3: launcher did not write $S3_PIDFILE"; }
  local deadline=$((SECONDS + S3_START_TIMEOUT))
  until s3_answers; do
    pid_alive "$pid" || { dump_log "$S3_LOG"; die "s3: server process $pid exited during startup"; }
    [ "$SECONDS" -lt "$deadline" ] || { dump_log "$S3_LOG"; die "s3: not answering on $S3_URL after ${S3_START_TIMEOUT}s (pid $pid)"; }
    sleep 0.3
  done
  say "s3: up on $S3_URL (pid $pid, moto; data in memory)"
}

s3_stop() {
  local pid
  if ! pid="$(s3_pid)"; then
    rm -f "$S3_PIDFILE"
    say "s3: not running"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + 10))
  while pid_alive "$pid" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
  if pid_alive "$pid"; then
    kill -KILL "$pid" 2>/dev/null || true
    deadline=$((SECONDS + 10))
    while pid_alive "$pid" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
    pid_alive "$pid" && die "s3: pid $pid survived SIGKILL"
  fi
  deadline=$((SECONDS + 10))
  while port_open "$S3_PORT" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
  rm -f "$S3_PIDFILE"
  say "s3: stopped"
}

s3_is_up() {
  local pid
  pid="$(s3_pid)" && s3_answers && echo "$pid"
}

# ---------------------------------------------------------------------------------------------
# commands

cmd_status() {
  local rc=0 pid
  if pg_is_ready; then say "postgres: up on 127.0.0.1:$PG_PORT"; else say "postgres: down"; rc=1; fi
  if pid="$(kafka_is_up)"; then say "kafka: up on $KAFKA_BROKERS (pid $pid)"; else say "kafka: down"; rc=1; fi
  if pid="$(s3_is_up)"; then say "s3: up on $S3_URL (pid $pid)"; else say "s3: down"; rc=1; fi
  return "$rc"
}

cmd_env() {
  printf "export DATABASE_URL='%s'\n" "$DATABASE_URL"
  printf "export KAFKA_BROKERS='%s'\n" "$KAFKA_BROKERS"
  printf "export DSAR_TEST_S3_URL='%s'\n" "$S3_URL"
}

usage() {
  sed -n '7,15p' "$SELF" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

main() {
  local cmd="${1:-}"
  case "$cmd" in
    # `if` so that a non-zero status is an answer, not an error for the ERR trap.
    status) if cmd_status; then exit 0; else exit 1; fi ;;
    env) cmd_env; return ;;
    up | down | kafka-start | kafka-stop | pg-start | pg-stop | s3-start | s3-stop) ;;
    *) usage ;;
  esac

  # Serialize the mutating commands (two test runners calling `up` at once). flock -o closes
  # the lock fd in the child, so daemons started below (postmaster, JVM) do not inherit it and
  # keep the lock held after we exit.
  mkdir -p "$INFRA_DIR"
  if [ -z "${DSAR_INFRA_LOCKED:-}" ]; then
    DSAR_INFRA_LOCKED=1 exec flock -o -w 600 "$INFRA_DIR/.lock" bash "$SELF" "$@"
  fi

  case "$cmd" in
    up) pg_up; kafka_start; s3_start ;;
    down) s3_stop; kafka_stop; pg_down ;;
    kafka-start) kafka_start ;;
    kafka-stop) kafka_stop ;;
    pg-start) pg_up ;;
    pg-stop) pg_down ;;
    s3-start) s3_start ;;
    s3-stop) s3_stop ;;
  esac
}

main "$@"
