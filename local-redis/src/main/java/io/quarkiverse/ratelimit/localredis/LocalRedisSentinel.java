package io.quarkiverse.ratelimit.localredis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A master, one replica and three Sentinels watching them (quorum 2), all local processes. Sentinels declare the
 * master down after one second, so a failover takes a few seconds.
 */
public final class LocalRedisSentinel implements AutoCloseable {

    public static final String MASTER_NAME = "rate-limit-master";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

    private final LocalRedisServer master;
    private final LocalRedisServer replica;
    private final List<LocalRedisServer> sentinels = new ArrayList<>();

    private LocalRedisSentinel(LocalRedisServer master, LocalRedisServer replica) {
        this.master = master;
        this.replica = replica;
    }

    public static LocalRedisSentinel start() {
        LocalRedisServer master = LocalRedisServer.start();
        LocalRedisSentinel setup = null;
        try {
            setup = new LocalRedisSentinel(master,
                    LocalRedisServer.start("--replicaof", master.host(), Integer.toString(master.port())));
            String config = String.join("\n",
                    "sentinel monitor " + MASTER_NAME + " " + master.host() + " " + master.port() + " 2",
                    "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
                    "sentinel failover-timeout " + MASTER_NAME + " 5000",
                    "sentinel parallel-syncs " + MASTER_NAME + " 1");
            for (int i = 0; i < 3; i++) {
                setup.sentinels.add(LocalRedisServer.startSentinel(config));
            }
            setup.awaitReady();
            return setup;
        } catch (RuntimeException e) {
            if (setup != null) {
                setup.close();
            } else {
                master.close();
            }
            throw e;
        }
    }

    public LocalRedisServer master() {
        return master;
    }

    public LocalRedisServer replica() {
        return replica;
    }

    /** The value for {@code quarkus.redis.hosts} with {@code client-type=sentinel}: every Sentinel. */
    public String hosts() {
        return sentinels.stream().map(LocalRedisServer::uri).collect(Collectors.joining(","));
    }

    /** The port of the master the Sentinels currently name. */
    public long currentMasterPort() {
        List<?> address = (List<?>) sentinels.get(0).command("SENTINEL", "get-master-addr-by-name", MASTER_NAME);
        return Long.parseLong((String) address.get(1));
    }

    /** Waits until the replica is in sync and every Sentinel knows the replica and the other Sentinels. */
    private void awaitReady() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (((String) replica.command("INFO", "replication")).contains("master_link_status:up")
                    && sentinels.stream().allMatch(LocalRedisSentinel::seesTheWholeSetup)) {
                return;
            }
            try {
                Thread.sleep(100); // polling processes of our own: nothing to await on
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("The Sentinel setup did not become ready within " + READY_TIMEOUT);
    }

    private static boolean seesTheWholeSetup(LocalRedisServer sentinel) {
        String info = (String) sentinel.command("INFO", "sentinel");
        return info.contains("status=ok") && info.contains("slaves=1") && info.contains("sentinels=3");
    }

    @Override
    public void close() {
        sentinels.forEach(LocalRedisServer::close);
        replica.close();
        master.close();
    }
}
