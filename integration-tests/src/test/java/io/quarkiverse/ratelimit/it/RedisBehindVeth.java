package io.quarkiverse.ratelimit.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;

import io.quarkiverse.ratelimit.localredis.RedisServerBinary;
import io.quarkiverse.ratelimit.localredis.RespConnection;

/**
 * A redis-server in a network namespace of its own, reached from this machine over two veth pairs (two links, one per
 * application instance), so that the kernel's own network faults can be put on one link: a narrow link (the
 * {@code tbf} queueing discipline), latency ({@code netem}, where the kernel has it), a black hole (iptables
 * {@code DROP}: TCP retransmits into silence) and resets (iptables {@code REJECT --reject-with tcp-reset}). Needs root,
 * iproute2 and iptables: {@link #start()} says why when it cannot make the namespace, for the test to skip.
 */
final class RedisBehindVeth implements AutoCloseable {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final int PORT = 6379;

    private final String namespace;
    private final List<Link> links;
    private final Path log;
    private Process redis;
    private final Thread shutdownHook = new Thread(this::removeNamespace, "redis-behind-veth-cleanup");

    /** One veth pair: this machine's end (where the application's packets leave) and the namespace's end. */
    record Link(String hostDevice, String namespaceDevice, String hostAddress, String redisAddress) {

        String redisUri() {
            return "redis://" + redisAddress + ":" + PORT;
        }
    }

    private RedisBehindVeth(String namespace, List<Link> links, Path log) {
        this.namespace = namespace;
        this.links = links;
        this.log = log;
    }

    /**
     * Makes the namespace and its two links and starts Redis in it.
     *
     * @throws Unavailable when this machine cannot (not root, no iproute2 or iptables, namespaces not permitted)
     */
    static RedisBehindVeth start() throws Unavailable {
        String id = ProcessHandle.current().pid() % 100_000 + "x" + SEQUENCE.getAndIncrement();
        // a private /24 per namespace, unlikely to be one of this machine's networks
        int subnet = (int) (ProcessHandle.current().pid() % 200) + 20;
        List<Link> links = List.of(
                new Link("rlh" + id + "a", "rlr" + id + "a", "10.213." + subnet + ".1", "10.213." + subnet + ".2"),
                new Link("rlh" + id + "b", "rlr" + id + "b", "10.213." + subnet + ".5", "10.213." + subnet + ".6"));
        RedisBehindVeth network;
        try {
            network = new RedisBehindVeth("rl-" + id, links, Files.createTempFile("redis-behind-veth-", ".log"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Runtime.getRuntime().addShutdownHook(network.shutdownHook);
        try {
            network.makeNamespace();
            network.inNamespace("iptables", "-L", "INPUT"); // iptables present and usable in the namespace
        } catch (RuntimeException e) {
            network.close();
            throw new Unavailable("cannot make a network namespace with veth links and iptables here: " + e.getMessage());
        }
        network.startRedis();
        return network;
    }

    /** The link of the {@code index}-th application instance. */
    Link link(int index) {
        return links.get(index);
    }

    /** Narrows the link to {@code kbit} kilobits a second each way (token bucket, a 64 KiB queue). */
    void narrow(Link link, int kbit) {
        String[] tbf = { "tbf", "rate", kbit + "kbit", "burst", "1600", "limit", "65536" };
        run(concat(List.of("tc", "qdisc", "replace", "dev", link.hostDevice(), "root"), tbf));
        inNamespace(concat(List.of("tc", "qdisc", "replace", "dev", link.namespaceDevice(), "root"), tbf));
    }

    /**
     * Delays every packet on the link by {@code delay} each way.
     *
     * @throws Unavailable when this kernel has no {@code netem}
     */
    void delay(Link link, Duration delay) throws Unavailable {
        String[] netem = { "netem", "delay", delay.toMillis() + "ms" };
        try {
            run(concat(List.of("tc", "qdisc", "replace", "dev", link.hostDevice(), "root"), netem));
        } catch (RuntimeException e) {
            throw new Unavailable("this kernel has no netem queueing discipline: " + e.getMessage());
        }
        inNamespace(concat(List.of("tc", "qdisc", "replace", "dev", link.namespaceDevice(), "root"), netem));
    }

    /** Every packet on the link, either way, is dropped without a word: TCP retransmits until the link heals. */
    void blackHole(Link link) {
        inNamespace("iptables", "-I", "INPUT", "-i", link.namespaceDevice(), "-j", "DROP");
        inNamespace("iptables", "-I", "OUTPUT", "-o", link.namespaceDevice(), "-j", "DROP");
    }

    /**
     * Every TCP segment the application sends over the link is answered with a reset: its connections to Redis are
     * reset at their next packet (a request, or the acknowledgement of a reply), and new ones refused.
     */
    void reset(Link link) {
        inNamespace("iptables", "-I", "INPUT", "-i", link.namespaceDevice(), "-p", "tcp", "-j", "REJECT",
                "--reject-with", "tcp-reset");
    }

    /** Writes a value of {@code bytes} to Redis over the link from this machine, as the link lets it through. */
    void send(Link link, int bytes) {
        try (RespConnection connection = RespConnection.open(link.redisAddress(), PORT, Duration.ofSeconds(20))) {
            connection.command("SET", "redis-behind-veth:probe", "x".repeat(bytes));
        }
    }

    /** How many packets the link's shaping held back (tbf's "overlimits") on this machine's end. */
    long overlimits(Link link) {
        String stats = run("tc", "-s", "qdisc", "show", "dev", link.hostDevice());
        int at = stats.indexOf("overlimits ");
        return at < 0 ? 0 : Long.parseLong(stats.substring(at + 11).split("\\s")[0]);
    }

    /** Takes every fault off the link. */
    void heal(Link link) {
        inNamespace("iptables", "-F", "INPUT");
        inNamespace("iptables", "-F", "OUTPUT");
        runQuietly("tc", "qdisc", "del", "dev", link.hostDevice(), "root");
        runQuietly("ip", "netns", "exec", namespace, "tc", "qdisc", "del", "dev", link.namespaceDevice(), "root");
    }

    @Override
    public void close() {
        if (redis != null) {
            redis.destroyForcibly();
            try {
                redis.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        removeNamespace();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException | IllegalArgumentException ignored) {
            // the JVM is shutting down: the hook does it
        }
    }

    private void makeNamespace() {
        run("ip", "netns", "add", namespace);
        inNamespace("ip", "link", "set", "lo", "up");
        for (Link link : links) {
            run("ip", "link", "add", link.hostDevice(), "type", "veth", "peer", "name", link.namespaceDevice());
            run("ip", "link", "set", link.namespaceDevice(), "netns", namespace);
            run("ip", "addr", "add", link.hostAddress() + "/30", "dev", link.hostDevice());
            run("ip", "link", "set", link.hostDevice(), "up");
            inNamespace("ip", "addr", "add", link.redisAddress() + "/30", "dev", link.namespaceDevice());
            inNamespace("ip", "link", "set", link.namespaceDevice(), "up");
        }
    }

    private void startRedis() {
        try {
            redis = new ProcessBuilder("ip", "netns", "exec", namespace, RedisServerBinary.locate().toString(),
                    "--port", Integer.toString(PORT), "--bind", "0.0.0.0", "--protected-mode", "no",
                    "--save", "", "--appendonly", "no", "--daemonize", "no")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Link link : links) {
            Awaitility.await("Redis in " + namespace + " answering on " + link.redisAddress() + " (log: " + log + ")")
                    .atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                    .until(() -> {
                        try (RespConnection connection = RespConnection.open(link.redisAddress(), PORT,
                                Duration.ofMillis(500))) {
                            return "PONG".equals(connection.command("PING"));
                        }
                    });
        }
    }

    private void removeNamespace() {
        // deleting the namespace deletes its ends of the veth pairs, and with them this machine's ends
        runQuietly("ip", "netns", "del", namespace);
        for (Link link : links) {
            runQuietly("ip", "link", "del", link.hostDevice());
        }
    }

    private String inNamespace(String... command) {
        return inNamespace(List.of(command));
    }

    private String inNamespace(List<String> command) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        full.addAll(command);
        return run(full.toArray(String[]::new));
    }

    private static String[] concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all.toArray(String[]::new);
    }

    private static void runQuietly(String... command) {
        try {
            run(command);
        } catch (RuntimeException ignored) {
            // already gone
        }
    }

    private static String run(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(20, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + ": " + output.strip());
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** This machine cannot make the namespace, or lacks the fault asked for. */
    static final class Unavailable extends Exception {

        Unavailable(String why) {
            super(why);
        }
    }
}
