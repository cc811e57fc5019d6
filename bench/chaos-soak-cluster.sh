#!/usr/bin/env bash
# Chaos soak on a Redis Cluster: three masters with a replica each, two instances of bench/soak-app in cluster mode
# under mixed load over every algorithm, failure mode and a concurrency limit, with a fault every interval (a master
# killed, a replica promoted by CLUSTER FAILOVER, a master paused past the node timeout, a slot migrated under load, in
# turn). Prints and checks what bench/chaos_soak_cluster.py says (no 5xx but the fail-closed 503s, no ERROR in the
# logs, flat heap and key count, every key with a TTL, no lease left, exact on every master after each recovery, every
# breaker closed again); exits non-zero when a check fails. Not a test: not in CI. Five minutes show each fault once:
#
#   bench/chaos-soak-cluster.sh [minutes=20] [seconds between faults=60]
#   bench/chaos-soak-cluster.sh 5            # the short run: each fault once
#
# Needs redis-server and redis-cli on PATH (or RATE_LIMIT_REDIS_SERVER), a JDK (java, jcmd) and python3.
set -euo pipefail
SOAK_DRIVER=chaos_soak_cluster.py exec "$(dirname "$0")/chaos-soak.sh" "$@"
