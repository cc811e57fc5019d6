#!/usr/bin/env bash
# Takes the Dev UI screenshots of the observability page (docs/modules/ROOT/images/dev-ui-*.png): starts the demo
# application in dev mode (its own redis-server), waits for it, and renders the card's Limits page in headless
# Chromium. Needs JDK 17, redis-server and the Debian package chromium (apt-get install chromium).
#
#   docs/screenshot-dev-ui.sh
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
./mvnw -q -B compile quarkus:dev -pl integration-tests -am -Dquarkus.console.enabled=false > "$log" 2>&1 &
dev=$!
trap 'kill $dev 2>/dev/null || true; wait $dev 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 600); do
  curl -s -o /dev/null -f localhost:8080/q/dev-ui/ && break
  sleep 0.5
done
# one decision so that the breaker page has something to show
curl -s -o /dev/null -H 'X-Tenant-Id: acme' localhost:8080/search || true
shoot() { # shoot <image> <Dev UI page> <width>: wide enough for the page's every column
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$(mktemp -d)" --hide-scrollbars \
    --window-size="$3",700 --virtual-time-budget=15000 \
    --screenshot="docs/modules/ROOT/images/$1" "http://localhost:8080/q/dev-ui/$2" 2>/dev/null
  echo "docs/modules/ROOT/images/$1"
}
shoot dev-ui-card.png extensions 1400
shoot dev-ui-limits.png quarkus-rate-limit/limits 2600
