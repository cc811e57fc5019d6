package io.quarkiverse.ratelimit.localredis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of local processes: {@code masters} masters sharing the 16384 slots evenly, each with one replica
 * when asked, built with plain cluster commands (no redis-cli needed). Closing it stops every node.
 */
public final class LocalRedisCluster implements AutoCloseable {

    private static final int SLOTS = 16384;
    private static final Duration FORMATION_TIMEOUT = Duration.ofSeconds(30);

    private final List<LocalRedisServer> masters = new ArrayList<>();
    private final List<LocalRedisServer> replicas = new ArrayList<>();

    private LocalRedisCluster() {
    }

    public static LocalRedisCluster start(int masters, boolean withReplicas) {
        LocalRedisCluster cluster = new LocalRedisCluster();
        try {
            for (int i = 0; i < masters; i++) {
                cluster.masters.add(startNode());
                if (withReplicas) {
                    cluster.replicas.add(startNode());
                }
            }
            cluster.form();
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private static LocalRedisServer startNode() {
        // without full coverage required, the masters that are up keep answering while a dead one's replica takes
        // over (with it, every node refuses every command with CLUSTERDOWN until then), as a rate limiter wants
        return LocalRedisServer.start("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", "2000", "--cluster-require-full-coverage", "no");
    }

    /** The nodes started as masters (see {@link #currentMasters()} after a failover). */
    public List<LocalRedisServer> masters() {
        return List.copyOf(masters);
    }

    /** The nodes started as replicas. */
    public List<LocalRedisServer> replicas() {
        return List.copyOf(replicas);
    }

    /** The value for {@code quarkus.redis.hosts}: every master. */
    public String hosts() {
        return masters.stream().map(LocalRedisServer::uri).collect(Collectors.joining(","));
    }

    /** The node that currently serves {@code slot} as master. */
    public LocalRedisServer masterOf(long slot) {
        for (LocalRedisServer node : nodes()) {
            if (isMaster(node) && servesSlot(node, slot)) {
                return node;
            }
        }
        throw new IllegalStateException("No master serves slot " + slot);
    }

    public long slotOf(String key) {
        return (Long) masters.get(0).command("CLUSTER", "KEYSLOT", key);
    }

    public List<LocalRedisServer> nodes() {
        List<LocalRedisServer> nodes = new ArrayList<>(masters);
        nodes.addAll(replicas);
        return nodes;
    }

    /** Slot migration, step 1: {@code target} imports {@code slot}, {@code source} migrates it. */
    public void beginSlotMigration(long slot, LocalRedisServer source, LocalRedisServer target) {
        String slotArg = Long.toString(slot);
        target.command("CLUSTER", "SETSLOT", slotArg, "IMPORTING", id(source));
        source.command("CLUSTER", "SETSLOT", slotArg, "MIGRATING", id(target));
    }

    /** Slot migration, step 2: every key of {@code slot} moves; the slot still belongs to {@code source} (ASK). */
    public void moveSlotKeys(long slot, LocalRedisServer source, LocalRedisServer target) {
        List<?> keys = (List<?>) source.command("CLUSTER", "GETKEYSINSLOT", Long.toString(slot), "1000");
        for (Object key : keys) {
            source.command("MIGRATE", target.host(), Integer.toString(target.port()), (String) key, "0", "5000");
        }
    }

    /** Slot migration, step 3: {@code target} owns {@code slot} (MOVED for clients that still ask the source). */
    public void finishSlotMigration(long slot, LocalRedisServer source, LocalRedisServer target) {
        String slotArg = Long.toString(slot);
        for (LocalRedisServer node : List.of(target, source)) {
            node.command("CLUSTER", "SETSLOT", slotArg, "NODE", id(target));
        }
    }

    private static String id(LocalRedisServer node) {
        return (String) node.command("CLUSTER", "MYID");
    }

    /** Waits until every node reports {@code cluster_state:ok} and agrees on the masters. */
    public void awaitHealthy() {
        long deadline = System.nanoTime() + FORMATION_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (nodes().stream().allMatch(node -> clusterInfo(node).contains("cluster_state:ok"))
                    && replicas.stream().allMatch(LocalRedisCluster::replicationLinkUp)) {
                return;
            }
            pause();
        }
        throw new IllegalStateException("The cluster did not become healthy within " + FORMATION_TIMEOUT);
    }

    @Override
    public void close() {
        nodes().forEach(LocalRedisServer::close);
    }

    private void form() {
        int perMaster = SLOTS / masters.size();
        for (int i = 0; i < masters.size(); i++) {
            int first = i * perMaster;
            int last = i == masters.size() - 1 ? SLOTS - 1 : first + perMaster - 1;
            addSlots(masters.get(i), first, last);
        }
        LocalRedisServer seed = masters.get(0);
        for (LocalRedisServer node : nodes()) {
            if (node != seed) {
                node.command("CLUSTER", "MEET", seed.host(), Integer.toString(seed.port()));
            }
        }
        for (int i = 0; i < replicas.size(); i++) {
            String masterId = (String) masters.get(i).command("CLUSTER", "MYID");
            LocalRedisServer replica = replicas.get(i);
            awaitKnows(replica, masterId);
            replica.command("CLUSTER", "REPLICATE", masterId);
        }
        awaitHealthy();
    }

    private static void addSlots(LocalRedisServer node, int first, int last) {
        List<String> args = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
        for (int slot = first; slot <= last; slot++) {
            args.add(Integer.toString(slot));
        }
        node.command(args.toArray(String[]::new));
    }

    private static void awaitKnows(LocalRedisServer node, String nodeId) {
        long deadline = System.nanoTime() + FORMATION_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (((String) node.command("CLUSTER", "NODES")).contains(nodeId)) {
                return;
            }
            pause();
        }
        throw new IllegalStateException("Node " + node.port() + " never learned of " + nodeId);
    }

    public static boolean isMaster(LocalRedisServer node) {
        return "master".equals(((List<?>) node.command("ROLE")).get(0));
    }

    /** The nodes that are masters now (a failover changes them). */
    public List<LocalRedisServer> currentMasters() {
        return nodes().stream().filter(LocalRedisCluster::isMaster).toList();
    }

    /** A node that currently replicates {@code master}. */
    public LocalRedisServer replicaOf(LocalRedisServer master) {
        for (LocalRedisServer node : nodes()) {
            List<?> role = (List<?>) node.command("ROLE");
            if ("slave".equals(role.get(0)) && Long.valueOf(master.port()).equals(role.get(2))) {
                return node;
            }
        }
        throw new IllegalStateException("No replica of " + master.port());
    }

    private static boolean servesSlot(LocalRedisServer node, long slot) {
        for (String line : ((String) node.command("CLUSTER", "NODES")).split("\n")) {
            if (!line.contains("myself")) {
                continue;
            }
            String[] fields = line.split(" ");
            for (int i = 8; i < fields.length; i++) {
                String[] range = fields[i].split("-");
                long from = Long.parseLong(range[0]);
                long to = range.length > 1 ? Long.parseLong(range[1]) : from;
                if (slot >= from && slot <= to) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String clusterInfo(LocalRedisServer node) {
        try {
            return (String) node.command("CLUSTER", "INFO");
        } catch (RuntimeException e) {
            return "";
        }
    }

    private static boolean replicationLinkUp(LocalRedisServer replica) {
        return ((String) replica.command("INFO", "replication")).contains("master_link_status:up");
    }

    private static void pause() {
        try {
            Thread.sleep(50); // polling processes of our own: nothing to await on
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
