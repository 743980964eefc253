#!/usr/bin/env bash
# `npm run start:distributed`: the distributed mode on one machine. Brings up
# the local PostgreSQL and Kafka (deploy/local/infra.sh), creates the topics,
# applies the migrations, then starts the eight services as eight processes
# (DB_DRIVER=postgres, BUS_DRIVER=kafka): the gateway on $PORT (8080) and the
# services on 3001-3007. Logs go to $DATA_DIR/logs/<service>.log. Ctrl-C (or
# SIGTERM) stops them all.
#
# Set DSAR_INFRA=external to use DATABASE_URL and KAFKA_BROKERS as given
# instead of the local infrastructure.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

if [ "${DSAR_INFRA:-}" != external ]; then
  bash deploy/local/infra.sh up
  eval "$(bash deploy/local/infra.sh env)"
fi
: "${DATABASE_URL:?DATABASE_URL is required}"
: "${KAFKA_BROKERS:?KAFKA_BROKERS is required}"
export DATABASE_URL KAFKA_BROKERS DB_DRIVER=postgres BUS_DRIVER=kafka
logs="${DATA_DIR:-$root/.data}/logs"
mkdir -p "$logs"

node tools/scripts/run-ts.cjs tools/scripts/create-topics.ts
node tools/scripts/run-ts.cjs tools/embedded/src/migrate.ts

services=(intake-gateway lifecycle-clock verification fulfilment-delivery audit-ledger policy-registry notifier api-gateway)
pids=()
stop() {
  trap - INT TERM EXIT
  echo "stopping ${#pids[@]} services"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait "${pids[@]}" 2>/dev/null || true
}
trap stop INT TERM EXIT

for s in "${services[@]}"; do
  # Each service reads PORT; only the gateway takes the caller's.
  if [ "$s" = api-gateway ]; then port="${PORT:-8080}"; else port=""; fi
  PORT="$port" node tools/scripts/run-ts.cjs "apps/$s/src/main.ts" >"$logs/$s.log" 2>&1 &
  pids+=("$!")
done

gateway="http://127.0.0.1:${PORT:-8080}"
for _ in $(seq 1 120); do
  for i in "${!pids[@]}"; do
    if ! kill -0 "${pids[$i]}" 2>/dev/null; then
      echo "${services[$i]} exited; last lines of $logs/${services[$i]}.log:" >&2
      tail -n 20 "$logs/${services[$i]}.log" >&2
      exit 1
    fi
  done
  if curl -fsS "$gateway/health/ready" >/dev/null 2>&1; then
    echo "DSAR service running in distributed mode on $gateway (8 processes; logs in $logs)"
    wait -n "${pids[@]}" || true
    echo "a service exited; stopping the others" >&2
    exit 1
  fi
  sleep 0.5
done
echo "the gateway did not become ready in 60 s; see $logs" >&2
exit 1
