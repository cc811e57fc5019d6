#!/usr/bin/env bash
# Regenerates every picture of the docs (docs/modules/ROOT/images) from real runs:
#   algorithms-at-a-boundary.png  every algorithm's decisions for one client, by the shipped scripts on a redis-server
#   breaker-timeline.png          the demo application's answers and its breaker while its redis-server is paused
#   race.png                      a naive limiter and @RateLimited on two instances (bench/race.sh)
#   architecture.png, breaker.png, precedence.png, code-map.png   the diagrams (docs/diagrams/*.mmd)
#   dev-ui-card.png, dev-ui-limits.png                            the Dev UI of the demo (docs/screenshot-dev-ui.sh)
#
#   docs/pictures.sh
#
# Needs redis-server, python3 with matplotlib (Debian: apt-get install python3-matplotlib), Node.js with npm and
# Chromium (apt-get install chromium), curl.
set -euo pipefail
cd "$(dirname "$0")/.."
images=docs/modules/ROOT/images

python=python3
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import matplotlib' 2> /dev/null; then python=$candidate; break; fi
done

./mvnw -q -B install -DskipTests -pl integration-tests -am
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no > /dev/null 2>&1 &
server=$!
trap 'kill $server 2> /dev/null || true' EXIT
until redis-cli -p "$port" ping > /dev/null 2>&1; do sleep 0.1; done
"$python" docs/pictures/algorithms.py "$port" integration-tests/target/quarkus-rate-limit/lua "$images/algorithms-at-a-boundary.png"

# the breaker over time: the demo application against that redis-server, which the script pauses and resumes
app_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
java -Dquarkus.http.port="$app_port" -Dquarkus.redis.hosts="redis://127.0.0.1:$port" \
  -jar integration-tests/target/quarkus-app/quarkus-run.jar > /dev/null 2>&1 &
app=$!
trap 'kill $server $app 2> /dev/null || true' EXIT
until curl -s -o /dev/null "http://127.0.0.1:$app_port/q/health/ready"; do sleep 0.2; done
"$python" docs/pictures/breaker_timeline.py "$app_port" "$server" "$images/breaker-timeline.png"
kill $app $server

bench/race.sh
docs/diagrams/render.sh
docs/screenshot-dev-ui.sh
