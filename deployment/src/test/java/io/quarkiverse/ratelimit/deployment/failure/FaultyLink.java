package io.quarkiverse.ratelimit.deployment.failure;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The network between the application and Redis, with its faults: a TCP proxy whose every connection forwards bytes
 * late (latency), slowly (a narrow link), not at all until healed (a black hole: bytes held, as TCP would retransmit
 * them once the path is back), or resets a connection in the middle of a reply; or whose open connections alone hang
 * (a client that locked up, a half-open connection) while new ones work. Bytes are never lost or reordered on a
 * connection, as on TCP. (The kernel's own faults, {@code tc netem} on a veth pair, are not available on every machine
 * the tests run on.) Shared through the system properties with JDK types only, as {@code QuarkusUnitTest} loads a test
 * class twice.
 * <p>
 * Real time is its subject (the latency and the narrow link it makes are durations): it reads the wall clock on purpose.
 */
public final class FaultyLink {

    private final Map<String, Object> shared;

    private FaultyLink(Map<String, Object> shared) {
        this.shared = shared;
    }

    @SuppressWarnings("unchecked")
    public static synchronized FaultyLink to(String name, String redisUri) {
        String key = FaultyLink.class.getName() + "." + name;
        Map<String, Object> shared = (Map<String, Object>) System.getProperties().get(key);
        if (shared == null) {
            Server server = new Server(URI.create(redisUri));
            shared = Map.of("uri", "redis://127.0.0.1:" + server.socket.getLocalPort(),
                    "fault", (Consumer<long[]>) server::fault,
                    "close", (Runnable) () -> {
                        server.close();
                        System.getProperties().remove(key);
                    });
            System.getProperties().put(key, shared);
        }
        return new FaultyLink(shared);
    }

    /** For {@code quarkus.redis.hosts}. */
    public String uri() {
        return (String) shared.get("uri");
    }

    /** Every byte, either way, arrives {@code latency} after it was sent. */
    public void delay(Duration latency) {
        fault(Server.DELAY, latency.toNanos());
    }

    /** Every reply from Redis arrives {@code latency} after it was sent; requests go at once. */
    public void delayReplies(Duration latency) {
        fault(Server.REPLY_DELAY, latency.toNanos());
    }

    /** Each direction of each connection carries at most {@code bytesPerSecond}. */
    public void narrow(long bytesPerSecond) {
        fault(Server.BANDWIDTH, bytesPerSecond);
    }

    /** Nothing arrives any more, either way, on any connection (they stay open) until {@link #heal()}. */
    public void blackHole() {
        fault(Server.BLACK_HOLE, 1);
    }

    /** The connections open now forward nothing more, for good (they stay open); later ones work. */
    public void hangOpenConnections() {
        fault(Server.HANG_OPEN, 1);
    }

    /** The next reply from Redis arrives in part, then its connection is reset (RST). */
    public void resetNextReply() {
        fault(Server.RESET, 1);
    }

    /** No fault: what the black hole held is delivered. */
    public void heal() {
        fault(Server.HEAL, 0);
    }

    public void close() {
        ((Runnable) shared.get("close")).run();
    }

    @SuppressWarnings("unchecked")
    private void fault(long kind, long value) {
        ((Consumer<long[]>) shared.get("fault")).accept(new long[] { kind, value });
    }

    private static final class Server {

        static final long HEAL = 0, DELAY = 1, BANDWIDTH = 2, BLACK_HOLE = 3, RESET = 4, HANG_OPEN = 5, REPLY_DELAY = 6;

        final ServerSocket socket;
        final URI target;
        final List<Socket> sockets = new CopyOnWriteArrayList<>();
        /** Each open connection's: whether it hangs for good. */
        final List<AtomicBoolean> hanging = new CopyOnWriteArrayList<>();
        volatile long delayNanos;
        volatile long replyDelayNanos;
        volatile long bytesPerSecond;
        volatile boolean blackHole;
        final AtomicBoolean resetArmed = new AtomicBoolean();

        Server(URI target) {
            this.target = target;
            try {
                socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            daemon(this::accept, "faulty-link");
        }

        synchronized void fault(long[] fault) {
            if (fault[0] == HEAL) {
                delayNanos = 0;
                replyDelayNanos = 0;
                bytesPerSecond = 0;
                blackHole = false;
                resetArmed.set(false);
            } else if (fault[0] == DELAY) {
                delayNanos = fault[1];
            } else if (fault[0] == REPLY_DELAY) {
                replyDelayNanos = fault[1];
            } else if (fault[0] == BANDWIDTH) {
                bytesPerSecond = fault[1];
            } else if (fault[0] == BLACK_HOLE) {
                blackHole = true;
            } else if (fault[0] == RESET) {
                resetArmed.set(true);
            } else if (fault[0] == HANG_OPEN) {
                hanging.forEach(hangs -> hangs.set(true));
            }
            notifyAll(); // what a black hole held goes on when healed
        }

        /** Waits, holding the bytes, while the path is a black hole or this connection hangs. */
        synchronized void awaitPath(AtomicBoolean hangs, Socket to) throws InterruptedException {
            while ((blackHole || hangs.get()) && !to.isClosed()) {
                wait(100); // woken by a heal; the timeout notices a closed socket
            }
        }

        void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket client = socket.accept();
                    Socket redis = new Socket(target.getHost(), target.getPort());
                    sockets.add(client);
                    sockets.add(redis);
                    AtomicBoolean hangs = new AtomicBoolean();
                    hanging.add(hangs);
                    pipe(client, redis, false, hangs);
                    pipe(redis, client, true, hangs);
                } catch (IOException e) {
                    // closed, or Redis refused: the client sees its connection close
                }
            }
        }

        /** Reads on one thread, writes on another, so a delay holds the bytes without slowing the reading. */
        void pipe(Socket from, Socket to, boolean replies, AtomicBoolean hangs) {
            BlockingQueue<Object[]> inTransit = new LinkedBlockingQueue<>();
            daemon(() -> {
                byte[] buffer = new byte[16384];
                try (InputStream in = from.getInputStream()) {
                    int read;
                    while ((read = in.read(buffer)) > 0) {
                        long delay = delayNanos + (replies ? replyDelayNanos : 0);
                        inTransit.put(new Object[] { Arrays.copyOf(buffer, read), System.nanoTime() + delay });
                    }
                } catch (IOException | InterruptedException e) {
                    // closed
                } finally {
                    inTransit.add(new Object[0]);
                }
            }, "faulty-link-read");
            daemon(() -> {
                try (OutputStream out = to.getOutputStream()) {
                    while (true) {
                        Object[] chunk = inTransit.take();
                        if (chunk.length == 0) {
                            break;
                        }
                        byte[] bytes = (byte[]) chunk[0];
                        sleepUntil((long) chunk[1]);
                        awaitPath(hangs, to);
                        long bandwidth = bytesPerSecond;
                        if (bandwidth > 0) {
                            Thread.sleep(bytes.length * 1000L / bandwidth);
                        }
                        if (replies && resetArmed.compareAndSet(true, false)) {
                            out.write(bytes, 0, Math.max(1, bytes.length / 2));
                            out.flush();
                            reset(to, from);
                            break;
                        }
                        out.write(bytes);
                    }
                } catch (IOException | InterruptedException e) {
                    // closed
                } finally {
                    closeQuietly(from);
                    closeQuietly(to);
                }
            }, "faulty-link-write");
        }

        static void sleepUntil(long dueNanos) throws InterruptedException {
            long left;
            while ((left = dueNanos - System.nanoTime()) > 0) {
                Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
            }
        }

        /** A TCP reset: closing with a zero linger time sends RST instead of FIN. */
        static void reset(Socket client, Socket redis) throws IOException {
            client.setSoLinger(true, 0);
            client.close();
            redis.setSoLinger(true, 0);
            redis.close();
        }

        void close() {
            closeQuietly(socket);
            sockets.forEach(Server::closeQuietly);
        }

        static void closeQuietly(java.io.Closeable closeable) {
            try {
                closeable.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }

        static void daemon(Runnable task, String name) {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            thread.start();
        }
    }
}
