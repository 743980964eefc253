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
#
# The gateway authenticates every /api/v1 call. When none of DSAR_API_KEYS,
# AUTH_JWT_SECRET and AUTH_JWKS_URL is set, it gets the development admin key
# of $DATA_DIR/dev-token (the one `npm start` uses; made on first use) for
# tenant "default", and the key is printed once the system is ready.
#
# Every process needs INTERNAL_AUTH_KEY (or INTERNAL_AUTH_KEY_FILE); without
# either, they share the development key of $DATA_DIR/internal-auth-key.
#
# The notifier and intake-gateway need REQUEST_REFERENCE_KEY (or
# REQUEST_REFERENCE_KEY_FILE), which tags and checks the request references of
# emails to data subjects; without either, they share the development key of
# $DATA_DIR/request-reference-key.
#
# lifecycle-clock needs IDENTITY_INDEX_KEY (or IDENTITY_INDEX_KEY_FILE), the key
# of its identity index (docs/identity.md); without either, it takes the
# development key of $DATA_DIR/identity-index-key.
#
# verification keeps evidence files in STORAGE_DIR (default here
# $DATA_DIR/verification/storage), and fulfilment-delivery its artifacts
# (default $DATA_DIR/fulfilment-delivery/storage), encrypted with
# STORAGE_MASTER_KEY (or STORAGE_MASTER_KEY_FILE); without either they use the
# development master key of $DATA_DIR/storage-master-key (the one `npm start`
# makes). Deleting that file makes the stored files unreadable.
#
# The notifier (docs/notifications.md) reads lifecycle-clock at
# LIFECYCLE_CLOCK_URL (default http://127.0.0.1:3002, where this script runs
# it), like the intake-gateway, verification and fulfilment-delivery, and asks
# fulfilment-delivery at FULFILMENT_DELIVERY_URL (default
# http://127.0.0.1:3004) for the link of a delivery by email. That link opens
# the person's download page at PORTAL_URL, here by default
# http://localhost:$PORT/portal/ (the gateway of this script); export
# PORTAL_URL when people reach the gateway by another address. Its other
# settings come from the environment like every other: export SMTP_URL (or
# SMTP_URL_FILE) to send email, SLACK_BOT_TOKEN (or SLACK_BOT_TOKEN_FILE) to
# post to Slack, and NOTIFIER_* (sender, operators, digest, retries). Without
# SMTP_URL emails are written as .eml files under $DATA_DIR/mail; without a
# token chat messages are only logged.
#
# policy-registry's retention report (docs/retention.md) asks the five services
# that own a retention class; it gets their URLs (LIFECYCLE_CLOCK_URL,
# VERIFICATION_URL, FULFILMENT_DELIVERY_URL, AUDIT_LEDGER_URL, NOTIFIER_URL),
# on the loopback ports this script runs them on. Those five sweep their
# classes every RETENTION_SWEEP_INTERVAL_MS (RETENTION_SWEEP_BATCH per page),
# taken from the environment like every other setting.
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
data_dir="${DATA_DIR:-$root/.data}"
logs="$data_dir/logs"
mkdir -p "$logs"

# Variables of the gateway process only.
gateway_env=()
dev_token=""
if [ -z "${DSAR_API_KEYS:-}" ] && [ -z "${AUTH_JWT_SECRET:-}" ] && [ -z "${AUTH_JWKS_URL:-}" ]; then
  dev_token="$(DATA_DIR="$data_dir" node tools/scripts/run-ts.cjs tools/scripts/dev-token.ts)"
  # The token is base64url with a prefix: nothing to escape in the JSON.
  gateway_env+=("DSAR_API_KEYS=[{\"token\":\"$dev_token\",\"tenantId\":\"default\",\"roles\":[\"admin\"]}]")
fi

# Every process signs and checks the caller's identity with one key (ADR 0020). Without one configured, the
# processes share the development key of $DATA_DIR/internal-auth-key (the one `npm start` uses; made on first use),
# passed as a file so that the key itself is in no process's environment.
if [ -z "${INTERNAL_AUTH_KEY:-}" ] && [ -z "${INTERNAL_AUTH_KEY_FILE:-}" ]; then
  key_file="$data_dir/internal-auth-key"
  if [ ! -s "$key_file" ]; then
    (umask 077 && node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64url') + '\n')" >"$key_file.$$" && mv -n "$key_file.$$" "$key_file")
    rm -f "$key_file.$$"
  fi
  export INTERNAL_AUTH_KEY_FILE="$key_file"
fi

# Variables of the verification and fulfilment-delivery processes only: where their files live and the master key
# they are encrypted with (docs/storage.md). Without a configured key they take the development key of
# $DATA_DIR/storage-master-key (the one `npm start` uses; made on first use, kept like the other development secrets,
# since a new key could not read the files stored before), passed as a file so that the key itself is in no
# process's environment.
verification_env=("STORAGE_DIR=${STORAGE_DIR:-$data_dir/verification/storage}")
fulfilment_env=("STORAGE_DIR=${STORAGE_DIR:-$data_dir/fulfilment-delivery/storage}")
if [ -z "${STORAGE_MASTER_KEY:-}" ] && [ -z "${STORAGE_MASTER_KEY_FILE:-}" ]; then
  storage_key_file="$data_dir/storage-master-key"
  if [ ! -s "$storage_key_file" ]; then
    (umask 077 && node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64') + '\n')" >"$storage_key_file.$$" && mv -n "$storage_key_file.$$" "$storage_key_file")
    rm -f "$storage_key_file.$$"
  fi
  verification_env+=("STORAGE_MASTER_KEY_FILE=$storage_key_file")
  fulfilment_env+=("STORAGE_MASTER_KEY_FILE=$storage_key_file")
fi

# Variables of the notifier process only: where it writes emails without an SMTP server ($DATA_DIR/mail), and the
# download page its delivery links open (the gateway's, unless PORTAL_URL is exported).
notifier_env=("DATA_DIR=$data_dir" "PORTAL_URL=${PORTAL_URL:-http://localhost:${PORT:-8080}/portal/}")
intake_env=()

# The notifier tags the references in its emails to data subjects and intake-gateway checks the tag of a quoted one,
# with one key (docs/webhooks.md#replies). Without one configured, both take the development key of
# $DATA_DIR/request-reference-key (the one `npm start` uses; made on first use), passed as a file.
if [ -z "${REQUEST_REFERENCE_KEY:-}" ] && [ -z "${REQUEST_REFERENCE_KEY_FILE:-}" ]; then
  reference_key_file="$data_dir/request-reference-key"
  if [ ! -s "$reference_key_file" ]; then
    (umask 077 && node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64url') + '\n')" >"$reference_key_file.$$" && mv -n "$reference_key_file.$$" "$reference_key_file")
    rm -f "$reference_key_file.$$"
  fi
  notifier_env+=("REQUEST_REFERENCE_KEY_FILE=$reference_key_file")
  intake_env+=("REQUEST_REFERENCE_KEY_FILE=$reference_key_file")
fi

# lifecycle-clock keeps its identity index under one key (docs/identity.md). Without one configured, it takes the
# development key of $DATA_DIR/identity-index-key (the one `npm start` uses; made on first use), passed as a file.
lifecycle_env=()
if [ -z "${IDENTITY_INDEX_KEY:-}" ] && [ -z "${IDENTITY_INDEX_KEY_FILE:-}" ]; then
  identity_key_file="$data_dir/identity-index-key"
  if [ ! -s "$identity_key_file" ]; then
    (umask 077 && node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64url') + '\n')" >"$identity_key_file.$$" && mv -n "$identity_key_file.$$" "$identity_key_file")
    rm -f "$identity_key_file.$$"
  fi
  lifecycle_env+=("IDENTITY_INDEX_KEY_FILE=$identity_key_file")
fi

# Variables of the policy-registry process only: the services its retention report asks, on their default ports.
policy_registry_env=(
  "LIFECYCLE_CLOCK_URL=http://127.0.0.1:3002"
  "VERIFICATION_URL=http://127.0.0.1:3003"
  "FULFILMENT_DELIVERY_URL=http://127.0.0.1:3004"
  "AUDIT_LEDGER_URL=http://127.0.0.1:3005"
  "NOTIFIER_URL=http://127.0.0.1:3007"
)

node tools/scripts/run-ts.cjs tools/scripts/create-topics.ts
node tools/scripts/run-ts.cjs tools/embedded/src/migrate.ts
# The gateway serves the operator console from its build (docs/console.md); built only when its sources changed.
node tools/scripts/run-ts.cjs tools/scripts/console-build.ts --if-stale

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
  port=""; extra=()
  if [ "$s" = api-gateway ]; then port="${PORT:-8080}"; extra=("${gateway_env[@]}"); fi
  if [ "$s" = verification ]; then extra=("${verification_env[@]}"); fi
  if [ "$s" = fulfilment-delivery ]; then extra=("${fulfilment_env[@]}"); fi
  if [ "$s" = notifier ]; then extra=("${notifier_env[@]}"); fi
  if [ "$s" = intake-gateway ]; then extra=("${intake_env[@]}"); fi
  if [ "$s" = lifecycle-clock ]; then extra=("${lifecycle_env[@]}"); fi
  if [ "$s" = policy-registry ]; then extra=("${policy_registry_env[@]}"); fi
  env PORT="$port" "${extra[@]}" node tools/scripts/run-ts.cjs "apps/$s/src/main.ts" >"$logs/$s.log" 2>&1 &
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
    if [ -n "$dev_token" ]; then
      # Printed once here, never written to the logs.
      echo "No authentication configured: development admin key for tenant \"default\" (also in $data_dir/dev-token):"
      echo "  Authorization: Bearer $dev_token"
    fi
    wait -n "${pids[@]}" || true
    echo "a service exited; stopping the others" >&2
    exit 1
  fi
  sleep 0.5
done
echo "the gateway did not become ready in 60 s; see $logs" >&2
exit 1
