"""The chaos soak's driver (run by bench/chaos-soak.sh, which builds the application first).

Two instances of bench/soak-app share one redis-server. Load threads call every endpoint (five algorithms, the three
failure modes, two limits on one call, a Uni endpoint, a concurrency limit) for random tenants on both instances,
while a fault hits Redis every interval, in turn: kill -9 (restarted empty 5 s later), pause (SIGSTOP for 3 s), flush
(FLUSHALL and SCRIPT FLUSH) and restart empty (SHUTDOWN NOSAVE, started again at once). After each fault it waits until
Redis decides again on both instances and checks that a fresh tenant's burst over both is admitted exactly.

It prints, and fails on: a 5xx other than the fail-closed endpoints' 503, an ERROR or exception in the instances' logs,
heap after a full GC or the Redis key count growing, a key without a TTL, a concurrency lease left once the lease has
passed after the load, an inexact burst after a recovery, or an instance whose breaker stays open.
"""
import argparse
import collections
import http.client
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ENDPOINTS = ["fixed", "sliding", "log", "bucket", "gcra", "two-limits", "slots", "programmatic"]
# fail-closed limits answer 503 while Redis cannot decide; every other 5xx is a defect
MAY_ANSWER_503 = {"gcra", "exact"}
EXACT_LIMIT = 20
# a line of a stack trace: "\tat ...", "Caused by: ...", or an exception's own first line
STACK_TRACE = re.compile(r"^(\tat |Caused by: |[\w.$]+(Exception|Error)(: |$))")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Redis:
    def __init__(self, binary, work):
        self.binary, self.work, self.port, self.process = binary, work, free_port(), None

    def start(self):
        log = open(os.path.join(self.work, "redis.log"), "a")
        self.process = subprocess.Popen([self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                         "--appendonly", "no"], stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 10
        while time.time() < deadline:
            if self.cli("PING", check=False) == "PONG":
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def cli(self, *args, check=True):
        result = subprocess.run(["redis-cli", "-p", str(self.port), *args], capture_output=True, text=True,
                                timeout=10)
        if check and result.returncode != 0:
            raise RuntimeError("redis-cli %s: %s" % (args, result.stderr))
        return result.stdout.strip()

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def keys(self):
        return [k for k in self.cli("--scan").splitlines() if k]


class App:
    def __init__(self, jar, hosts, work, name, properties=()):
        self.port = free_port()
        self.log_path = os.path.join(work, "app-%s.log" % name)
        self.process = subprocess.Popen(
            ["java", "-Xmx256m", "-Dquarkus.http.port=%d" % self.port, "-Dquarkus.redis.hosts=" + hosts,
             *["-D" + p for p in properties], "-jar", jar],
            stdout=open(self.log_path, "w"), stderr=subprocess.STDOUT)

    def call(self, path, tenant, timeout=10):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request("GET", path, headers={"X-Tenant-Id": tenant})
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()

    def wait_ready(self):
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                self.call("/soak/fixed", "ready", timeout=2)
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the application did not start; see " + self.log_path)

    def heap_after_full_gc_kb(self):
        subprocess.run(["jcmd", str(self.process.pid), "GC.run"], capture_output=True, timeout=60)
        info = subprocess.run(["jcmd", str(self.process.pid), "GC.heap_info"], capture_output=True, text=True,
                              timeout=60).stdout
        match = re.search(r"used (\d+)K", info)
        return int(match.group(1)) if match else -1


class Load:
    """Load threads with a keep-alive connection per instance; counts answers per endpoint and status."""

    def __init__(self, apps, threads, tenants):
        self.apps, self.threads, self.tenants = apps, threads, tenants
        self.statuses = collections.Counter()
        self.slow = 0
        self.failures = collections.Counter()
        self.lock = threading.Lock()
        self.running = True
        self.workers = [threading.Thread(target=self.run, daemon=True) for _ in range(threads)]

    def start(self):
        for worker in self.workers:
            worker.start()

    def stop(self):
        self.running = False
        for worker in self.workers:
            worker.join()

    def run(self):
        connections = {}
        while self.running:
            app = random.choice(self.apps)
            endpoint = random.choice(ENDPOINTS)
            tenant = "tenant-%d" % random.randrange(self.tenants)
            started = time.time()
            try:
                connection = connections.get(app.port)
                if connection is None:
                    connection = connections[app.port] = http.client.HTTPConnection("127.0.0.1", app.port, timeout=10)
                connection.request("GET", "/soak/" + endpoint, headers={"X-Tenant-Id": tenant})
                response = connection.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException) as failure:
                connections.pop(app.port, None)
                with self.lock:
                    self.failures[type(failure).__name__] += 1
                continue
            elapsed = time.time() - started
            with self.lock:
                self.statuses[(endpoint, status)] += 1
                if elapsed > 2.0:
                    self.slow += 1


def exact_burst(apps, tenant, calls=60):
    """A fresh tenant's calls, concurrently over both instances: how many each status got."""
    with ThreadPoolExecutor(max_workers=30) as pool:
        statuses = list(pool.map(lambda n: apps[n % 2].call("/soak/exact", tenant), range(calls)))
    return collections.Counter(statuses)


def wait_until_redis_decides(apps, probe, fresh, timeout=60):
    """Until both instances answer the fail-closed endpoint from Redis again for fresh tenants (fresh(prefix): one, or
    one per master of a cluster): seconds taken, or None."""
    started = time.time()
    n = 0
    while time.time() - started < timeout:
        n += 1
        try:
            if all(app.call("/soak/exact", tenant, timeout=5) == 200
                   for app in apps for tenant in fresh("%s-%d" % (probe, n))):
                return time.time() - started
        except OSError:
            pass
        time.sleep(0.2)
    return None


def faults_in_turn(apps, store, faults, inject, fresh, args, keys_seen, settle=lambda: None):
    """One fault every interval, in turn, until the soak's time is up (inject(fault) injects it and says what it did).
    After each: until when both instances decide on Redis again for fresh tenants (fresh(prefix): one, or one per master
    of a cluster), and whether a fresh tenant's burst over both is exact (on each master); settle() waits for what the
    next fault needs. The problems found."""
    problems = []
    deadline = time.time() + args.minutes * 60
    n = 0
    while time.time() + args.interval <= deadline:
        time.sleep(args.interval / 2)
        fault = faults[n % len(faults)]
        n += 1
        began = time.time()
        what = inject(fault)
        injected = time.time()
        recovered = wait_until_redis_decides(apps, "probe-%d" % n, fresh)
        bursts = [exact_burst(apps, tenant) for tenant in fresh("exact-%d" % n)]
        inexact = [dict(b) for b in bursts if b[200] != EXACT_LIMIT or b[429] != sum(b.values()) - EXACT_LIMIT]
        print("fault %d (%s): Redis decides again %s; fresh tenants' bursts: %s%s" % (
            n, what, "never" if recovered is None else "%.1f s after the fault ended (%.1f s after it began)" % (
                recovered, injected + recovered - began), [dict(b) for b in bursts],
            "  <-- not exact: %s" % inexact if inexact else ""), flush=True)
        if recovered is None:
            problems.append("fault %d (%s): Redis did not decide again within 60 s" % (n, fault))
        if inexact:
            problems.append("fault %d (%s): %s, expected %d admitted each" % (n, fault, inexact, EXACT_LIMIT))
        settle()
        time.sleep(max(0, began + args.interval / 2 - time.time()))
        keys_seen.append(len(store.keys()))
    return problems


def inject(redis, fault):
    """Injects one fault into the redis-server; its name."""
    if fault == "kill":
        redis.kill()
        time.sleep(5)
        redis.start()
    elif fault == "pause":
        redis.process.send_signal(signal.SIGSTOP)
        time.sleep(3)
        redis.process.send_signal(signal.SIGCONT)
    elif fault == "flush":
        redis.cli("FLUSHALL")
        redis.cli("SCRIPT", "FLUSH")
    else:
        redis.cli("SHUTDOWN", "NOSAVE", check=False)
        redis.process.wait()
        redis.start()
    return fault


def arguments():
    """The soak's command line: how long, how often a fault, how much load, and what to run."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=20)
    parser.add_argument("--interval", type=float, default=60, help="seconds between faults")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--tenants", type=int, default=200)
    parser.add_argument("--jar", required=True)
    parser.add_argument("--redis-server", default="redis-server")
    parser.add_argument("--work", required=True)
    return parser.parse_args()


def loaded(apps, store, args):
    """Starts the load once the instances answer, and warms it up: the load, the heaps after a full GC and the key
    count it starts from."""
    for app in apps:
        app.wait_ready()
    load = Load(apps, args.threads, args.tenants)
    load.start()
    time.sleep(min(30, args.interval / 2))  # warm-up
    heap_start = [app.heap_after_full_gc_kb() for app in apps]
    keys_seen = [len(store.keys())]
    print("warmed up: heap after full GC %s KB, %d keys" % (heap_start, keys_seen[0]), flush=True)
    return load, heap_start, keys_seen


def checks_at_the_end(apps, load, store, heap_start, keys_seen, minutes, final_tenants=("final",)):
    """Prints what the soak left, after the load stopped, and returns its problems. store: keys() and cli(...) of the
    Redis or the cluster; final_tenants: fresh tenants (one per master of a cluster) whose calls every instance must
    have decided by Redis again (its breakers closed)."""
    problems = []
    heap_end = [app.heap_after_full_gc_kb() for app in apps]
    without_ttl = [k for k in store.keys() if store.cli("PTTL", k) == "-1"]
    time.sleep(11)  # the concurrency lease, 10 s, has passed
    leases = sum(int(store.cli("ZCARD", k) or 0) for k in store.keys() if "slots" in k)
    stuck_open = ["%d (%s)" % (app.port, tenant) for app in apps for tenant in final_tenants
                  if app.call("/soak/exact", tenant) != 200]

    server_errors = {k: v for k, v in load.statuses.items() if k[1] >= 500
                     and not (k[1] == 503 and k[0] in MAY_ANSWER_503)}
    log_errors = []
    for app in apps:
        with open(app.log_path) as log:
            log_errors += [line.rstrip() for line in log if " ERROR " in line or STACK_TRACE.match(line)]

    total = sum(load.statuses.values())
    print()
    print("calls: %d over %.1f min, by endpoint and status: %s" % (total, minutes, dict(sorted(load.statuses.items()))))
    print("client-side failures (connection errors): %s; answers slower than 2 s: %d" % (
        dict(load.failures), load.slow))
    print("5xx other than the fail-closed 503s: %s" % (server_errors or 0))
    print("ERROR lines or stack traces in the instances' logs: %d" % len(log_errors))
    for line in log_errors[:10]:
        print("    " + line)
    print("heap after full GC, KB: start %s, end %s" % (heap_start, heap_end))
    print("Redis keys, after warm-up and after each fault: %s" % keys_seen)
    print("keys without a TTL: %d %s" % (len(without_ttl), without_ttl[:5]))
    print("concurrency leases left once the lease passed: %d" % leases)
    print("instances whose breaker stayed open: %s" % (stuck_open or 0))

    if server_errors:
        problems.append("5xx other than fail-closed 503: %s" % server_errors)
    if log_errors:
        problems.append("%d ERROR lines or exceptions in the logs" % len(log_errors))
    if any(end > start + 32 * 1024 for start, end in zip(heap_start, heap_end)):
        problems.append("heap grew: %s -> %s KB" % (heap_start, heap_end))
    if len(keys_seen) > 2 and keys_seen[-1] > 2 * max(keys_seen[:2]):
        problems.append("Redis keys grew: %s" % keys_seen)
    if without_ttl:
        problems.append("%d keys without a TTL" % len(without_ttl))
    if leases:
        problems.append("%d leases left" % leases)
    if stuck_open:
        problems.append("breaker open on %s" % stuck_open)
    return problems


def report(problems):
    """Prints the verdict; exits 1 when a check failed."""
    print()
    if problems:
        print("FAILED:")
        for problem in problems:
            print("  " + problem)
        sys.exit(1)
    print("PASSED: every check held")


def main():
    args = arguments()

    redis = Redis(args.redis_server, args.work)
    redis.start()
    apps = [App(args.jar, "redis://127.0.0.1:%d" % redis.port, args.work, name) for name in ("a", "b")]
    problems = []
    try:
        load, heap_start, keys_seen = loaded(apps, redis, args)

        problems += faults_in_turn(apps, redis, ["kill", "pause", "flush", "restart-empty"],
                                   lambda fault: inject(redis, fault), lambda prefix: [prefix], args, keys_seen)

        load.stop()
        problems += checks_at_the_end(apps, load, redis, heap_start, keys_seen, args.minutes)
    finally:
        for app in apps:
            app.process.terminate()
        for app in apps:
            app.process.wait()
        if redis.process.poll() is None:
            redis.process.send_signal(signal.SIGCONT)
            redis.kill()

    report(problems)


if __name__ == "__main__":
    main()
