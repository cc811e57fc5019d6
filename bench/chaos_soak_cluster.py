"""The chaos soak on a Redis Cluster (run by bench/chaos-soak-cluster.sh, which builds the application first).

Three masters with a replica each, every node its own redis-server process and folder (its nodes.conf survives a
restart). Two instances of bench/soak-app, in cluster mode, under the single-Redis soak's mixed load (every algorithm,
failure mode, a concurrency limit, the RateLimiter), while a fault hits the cluster every interval, in turn:
  kill      a master killed (kill -9); its replica takes over; the node restarted, it rejoins as a replica
  failover  a replica promoted by CLUSTER FAILOVER (the graceful hand-over of a maintenance)
  pause     a master stopped (SIGSTOP) past the node timeout, so its replica takes over; then resumed, it is demoted
  migrate   a slot that holds the load's keys moved to another master under load (SETSLOT, MIGRATE, SETSLOT NODE)
After each fault it waits until Redis decides again on both instances for a fresh tenant of every master, then checks
that a fresh tenant's burst over both instances is admitted exactly, on every master. The end checks are the
single-Redis soak's (bench/chaos_soak.py): no 5xx but the fail-closed 503s, no ERROR, flat heap and key count, every
key with a TTL, no lease left, and every instance's breaker closed again on every master.
"""
import os
import random
import signal
import socket
import subprocess
import time

from chaos_soak import App, arguments, checks_at_the_end, faults_in_turn, loaded, report

SLOTS = 16384
NODE_TIMEOUT_MS = 2000


def crc16(data):
    """Redis Cluster's key hash (CRC16-CCITT, XMODEM)."""
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def tenant_slot(tenant):
    """The slot of a tenant's keys: the tenant id is their hash tag (ids of letters, digits and - stay as they are)."""
    return crc16(tenant.encode()) % SLOTS


def node_port():
    """A free port whose cluster bus port (10000 above) is free and valid too."""
    while True:
        port = random.randrange(20000, 55000)
        try:
            for candidate in (port, port + 10000):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", candidate))
            return port
        except OSError:
            continue


class Node:
    def __init__(self, binary, work, name):
        self.binary, self.port, self.process = binary, node_port(), None
        self.dir = os.path.join(work, "redis-" + name)
        os.makedirs(self.dir)

    def start(self):
        log = open(os.path.join(self.dir, "redis.log"), "a")
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir, "--save", "",
             "--appendonly", "no", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
             "--cluster-node-timeout", str(NODE_TIMEOUT_MS), "--cluster-require-full-coverage", "no"],
            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 10
        while time.time() < deadline:
            if self.cli("PING", check=False) == "PONG":
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start on %d" % self.port)

    def cli(self, *args, check=True):
        result = subprocess.run(["redis-cli", "-p", str(self.port), *args], capture_output=True, text=True,
                                timeout=10)
        if check and result.returncode != 0:
            raise RuntimeError("redis-cli -p %d %s: %s" % (self.port, args, result.stderr))
        return result.stdout.strip()

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()


class Cluster:
    def __init__(self, binary, work):
        self.nodes = [Node(binary, work, str(i)) for i in range(6)]

    def create(self):
        for node in self.nodes:
            node.start()
        addresses = ["127.0.0.1:%d" % node.port for node in self.nodes]
        subprocess.run(["redis-cli", "--cluster", "create", *addresses, "--cluster-replicas", "1", "--cluster-yes"],
                       check=True, capture_output=True, timeout=60)
        self.await_healthy()

    def hosts(self):
        return ",".join("redis://127.0.0.1:%d" % node.port for node in self.nodes)

    def view(self):
        """CLUSTER NODES as a live node sees it: {port: (flags, slots)}."""
        for node in self.nodes:
            if node.alive():
                try:
                    text = node.cli("CLUSTER", "NODES")
                except (RuntimeError, subprocess.TimeoutExpired):
                    continue
                view = {}
                for line in text.splitlines():
                    fields = line.split()
                    port = int(fields[1].split("@")[0].split(":")[1])
                    view[port] = (fields[2].split(","), fields[8:])
                return view
        raise RuntimeError("no node answers")

    def masters(self):
        """The nodes that serve slots now, with their slot ranges."""
        masters = {}
        for port, (flags, slots) in self.view().items():
            if "master" in flags and "fail" not in flags and "fail?" not in flags and slots:
                ranges = []
                for part in slots:
                    if part.startswith("["):
                        continue  # a slot being migrated
                    first, _, last = part.partition("-")
                    ranges.append((int(first), int(last or first)))
                masters[self.node(port)] = ranges
        return masters

    def replicas(self):
        return [self.node(port) for port, (flags, _) in self.view().items()
                if "slave" in flags and "fail" not in flags and "fail?" not in flags]

    def node(self, port):
        return next(node for node in self.nodes if node.port == port)

    def owner(self, slot):
        for master, ranges in self.masters().items():
            if any(first <= slot <= last for first, last in ranges):
                return master
        return None

    def await_healthy(self, timeout=60):
        """Until every slot has a live master, three masters each with a replica, and every node says ok."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                masters = self.masters()
                covered = sum(last - first + 1 for ranges in masters.values() for first, last in ranges)
                if covered == SLOTS and len(masters) == 3 and len(self.replicas()) == 3 and all(
                        "cluster_state:ok" in node.cli("CLUSTER", "INFO") for node in self.nodes if node.alive()):
                    return time.time()
            except (RuntimeError, subprocess.TimeoutExpired, ValueError):
                pass
            time.sleep(0.2)
        raise RuntimeError("the cluster did not become healthy within %d s: %s" % (timeout, self.view()))

    def await_served(self, timeout=60):
        """Until every slot has a live master again (the replicas may still be syncing)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                masters = self.masters()
                if sum(last - first + 1 for ranges in masters.values() for first, last in ranges) == SLOTS:
                    return
            except (RuntimeError, subprocess.TimeoutExpired):
                pass
            time.sleep(0.1)
        raise RuntimeError("slots without a master after %d s" % timeout)

    # the stores' interface the end checks use (bench/chaos_soak.py): every master's keys, and key commands
    def keys(self):
        keys = []
        for master in self.masters():
            keys += [k for k in master.cli("--scan").splitlines() if k]
        return keys

    def cli(self, *args):
        live = next(node for node in self.masters())
        result = subprocess.run(["redis-cli", "-c", "-p", str(live.port), *args], capture_output=True, text=True,
                                timeout=10)
        return result.stdout.strip()

    def stop(self):
        for node in self.nodes:
            if node.alive():
                node.process.send_signal(signal.SIGCONT)
                node.kill()


def fresh_tenants(cluster, prefix):
    """One fresh tenant on each master: names whose slot that master owns now."""
    tenants = []
    for master, ranges in cluster.masters().items():
        n = 0
        while True:
            tenant = "%s-%d-%d" % (prefix, master.port, n)
            slot = tenant_slot(tenant)
            if any(first <= slot <= last for first, last in ranges):
                tenants.append(tenant)
                break
            n += 1
    return tenants


def migrate_slot(cluster, tenant):
    """Moves the slot of the load tenant's keys to another master, under load: every key, then the ownership."""
    slot = tenant_slot(tenant)
    source = cluster.owner(slot)
    target = random.choice([m for m in cluster.masters() if m is not source])
    source_id, target_id = source.cli("CLUSTER", "MYID"), target.cli("CLUSTER", "MYID")
    target.cli("CLUSTER", "SETSLOT", str(slot), "IMPORTING", source_id)
    source.cli("CLUSTER", "SETSLOT", str(slot), "MIGRATING", target_id)
    moved = 0
    while True:
        keys = source.cli("CLUSTER", "GETKEYSINSLOT", str(slot), "100").split()
        if not keys:
            break
        source.cli("MIGRATE", "127.0.0.1", str(target.port), "", "0", "5000", "KEYS", *keys)
        moved += len(keys)
    # the new owner first: until the old one hears it, it still answers ASK, never a MOVED to a node that refuses
    for master in [target, source] + [m for m in cluster.masters() if m not in (target, source)]:
        master.cli("CLUSTER", "SETSLOT", str(slot), "NODE", target_id)
    return "slot %d (%d keys) from :%d to :%d" % (slot, moved, source.port, target.port)


def inject(cluster, fault, load_tenants):
    """Injects one fault and returns what it did."""
    if fault == "kill":
        master = random.choice(list(cluster.masters()))
        master.kill()
        cluster.await_served()
        master.start()  # rejoins as a replica of the master that took over
        return "master :%d killed, restarted as a replica" % master.port
    if fault == "failover":
        replica = random.choice(cluster.replicas())
        replica.cli("CLUSTER", "FAILOVER")
        deadline = time.time() + 30
        while "role:master" not in replica.cli("INFO", "replication") and time.time() < deadline:
            time.sleep(0.05)
        return "replica :%d promoted" % replica.port
    if fault == "pause":
        master = random.choice(list(cluster.masters()))
        master.process.send_signal(signal.SIGSTOP)
        time.sleep(NODE_TIMEOUT_MS / 1000 + 3)
        master.process.send_signal(signal.SIGCONT)
        return "master :%d paused %.0f s" % (master.port, NODE_TIMEOUT_MS / 1000 + 3)
    return migrate_slot(cluster, "tenant-%d" % random.randrange(load_tenants))


def main():
    args = arguments()

    cluster = Cluster(args.redis_server, args.work)
    apps = []
    problems = []
    try:
        cluster.create()
        apps = [App(args.jar, cluster.hosts(), args.work, name, ["quarkus.redis.client-type=cluster"])
                for name in ("a", "b")]
        load, heap_start, keys_seen = loaded(apps, cluster, args)

        problems += faults_in_turn(apps, cluster, ["kill", "failover", "pause", "migrate"],
                                   lambda fault: "%s: %s" % (fault, inject(cluster, fault, args.tenants)),
                                   lambda prefix: fresh_tenants(cluster, prefix), args, keys_seen,
                                   settle=cluster.await_healthy)  # a restarted or demoted node is a replica again

        load.stop()
        problems += checks_at_the_end(apps, load, cluster, heap_start, keys_seen, args.minutes,
                                      final_tenants=fresh_tenants(cluster, "final"))
    finally:
        for app in apps:
            app.process.terminate()
        for app in apps:
            app.process.wait()
        cluster.stop()

    report(problems)


if __name__ == "__main__":
    main()
