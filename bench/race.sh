#!/usr/bin/env bash
# The race this extension exists to prevent, in one command: two instances of the demo application share one
# redis-server, and the same burst of one tenant's requests, spread over both, goes to a naive limiter (GET the count,
# decide, INCR: NaiveLimiterResource) and to the same limit with @RateLimited (/exact/sliding), 50 a day each. Prints
# what each admitted, round by round, and draws it (docs/modules/ROOT/images/race.png) when matplotlib is there.
#
#   bench/race.sh [rounds=5] [requests=400] [parallel=64]
#
# Needs redis-server and redis-cli on PATH (or RATE_LIMIT_REDIS_SERVER), curl and python3 (python3-matplotlib for the picture:
# apt-get install python3-matplotlib).
source "$(dirname "$0")/lib.sh"
rounds=${1:-5}
requests=${2:-400}
parallel=${3:-64}

./mvnw -q -B install -DskipTests -pl integration-tests -am

start_redis
start_instances integration-tests/target/quarkus-app/quarkus-run.jar /exact/sliding

python=python3 # one with matplotlib, when there is one (Debian's package goes to the system's python3)
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import matplotlib' 2> /dev/null; then python=$candidate; break; fi
done
"$python" - "$rounds" "$requests" "$parallel" "$port_a" "$port_b" <<'PY'
import concurrent.futures, sys, urllib.request, urllib.error, uuid

rounds, requests, parallel = (int(a) for a in sys.argv[1:4])
ports = sys.argv[4:6]
LIMIT = 50

def call(url, tenant):
    request = urllib.request.Request(url, headers={"X-Tenant-Id": tenant})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code

def burst(path):
    """One tenant's burst, every other request on the other instance; how many were admitted."""
    tenant = "race-" + uuid.uuid4().hex[:12]
    urls = ["http://127.0.0.1:%s%s" % (ports[i % 2], path) for i in range(requests)]
    with concurrent.futures.ThreadPoolExecutor(parallel) as pool:
        statuses = list(pool.map(lambda url: call(url, tenant), urls))
    unexpected = [s for s in statuses if s not in (200, 429)]
    if unexpected:
        sys.exit("unexpected answers: %s" % sorted(set(unexpected)))
    return statuses.count(200)

print("limit %d a day, one tenant, %d concurrent requests (%d at a time) over two instances sharing one Redis"
      % (LIMIT, requests, parallel))
print("%-6s %28s %28s" % ("round", "naive (GET, decide, INCR)", "@RateLimited (one script)"))
naive, exact = [], []
for r in range(1, rounds + 1):
    naive.append(burst("/naive/sliding"))
    exact.append(burst("/exact/sliding"))
    print("%-6d %28d %28d" % (r, naive[-1], exact[-1]))
print("admitted beyond the limit: naive %d to %d, @RateLimited %d to %d"
      % (min(naive) - LIMIT, max(naive) - LIMIT, min(exact) - LIMIT, max(exact) - LIMIT))

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("(no picture: apt-get install python3-matplotlib)")
    sys.exit(0)
figure, axes = plt.subplots(figsize=(8, 4.2), dpi=110)
x = range(1, rounds + 1)
width = 0.38
axes.bar([i - width / 2 for i in x], naive, width, label="naive limiter: GET, decide, INCR", color="#d9534f")
axes.bar([i + width / 2 for i in x], exact, width, label="@RateLimited: one atomic script", color="#2e7d32")
axes.axhline(LIMIT, color="black", linestyle="--", linewidth=1)
axes.text(0.45, LIMIT + 1, "limit %d" % LIMIT, va="bottom")
axes.set_ylim(0, max(naive + exact) * 1.35)
axes.set_xticks(list(x))
axes.set_xlabel("burst (%d requests of one tenant over two instances)" % requests)
axes.set_ylabel("requests admitted")
axes.set_title("Two instances, one Redis, one limit of %d" % LIMIT)
axes.legend(loc="upper center", ncol=2, fontsize=9)
figure.tight_layout()
figure.savefig("docs/modules/ROOT/images/race.png")
print("picture: docs/modules/ROOT/images/race.png")
PY
