package io.quarkiverse.ratelimit.deployment.failure;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of Redis that can wedge the connections it has: they stay open and forward nothing more, while
 * new connections work. So a client whose connections hang while Redis itself is healthy (a client-side lock-up, a
 * half-open TCP connection) can be reproduced. Shared, like {@code TestRedis}, through the system properties with JDK
 * types only, since a {@code QuarkusUnitTest} class is loaded twice.
 */
public final class WedgingProxy {

    private final Map<String, Object> shared;

    private WedgingProxy(Map<String, Object> shared) {
        this.shared = shared;
    }

    @SuppressWarnings("unchecked")
    public static synchronized WedgingProxy to(String name, String redisUri) {
        String key = WedgingProxy.class.getName() + "." + name;
        Map<String, Object> shared = (Map<String, Object>) System.getProperties().get(key);
        if (shared == null) {
            Server server = new Server(URI.create(redisUri));
            shared = Map.of("uri", "redis://127.0.0.1:" + server.socket.getLocalPort(),
                    "wedge", (Runnable) server::wedge,
                    "close", (Runnable) () -> {
                        server.close();
                        System.getProperties().remove(key);
                    });
            System.getProperties().put(key, shared);
        }
        return new WedgingProxy(shared);
    }

    /** For {@code quarkus.redis.hosts}. */
    public String uri() {
        return (String) shared.get("uri");
    }

    /** The connections open now forward nothing more (they stay open); later ones work. */
    public void wedgeOpenConnections() {
        ((Runnable) shared.get("wedge")).run();
    }

    public void close() {
        ((Runnable) shared.get("close")).run();
    }

    private static final class Server {

        final ServerSocket socket;
        final URI target;
        final List<Connection> connections = new CopyOnWriteArrayList<>();

        Server(URI target) {
            this.target = target;
            try {
                socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Thread acceptor = new Thread(this::accept, "wedging-proxy");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket client = socket.accept();
                    Socket redis = new Socket(target.getHost(), target.getPort());
                    Connection connection = new Connection(client, redis);
                    connections.add(connection);
                    connection.pump(client, redis);
                    connection.pump(redis, client);
                } catch (IOException e) {
                    // closed, or Redis refused: the client sees its connection close
                }
            }
        }

        void wedge() {
            connections.forEach(connection -> connection.wedged = true);
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            connections.forEach(Connection::close);
        }
    }

    private static final class Connection {

        final Socket client;
        final Socket redis;
        volatile boolean wedged;

        Connection(Socket client, Socket redis) {
            this.client = client;
            this.redis = redis;
        }

        void pump(Socket from, Socket to) {
            Thread pump = new Thread(() -> {
                byte[] buffer = new byte[16384];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    int read;
                    while ((read = in.read(buffer)) > 0) {
                        while (wedged && !from.isClosed()) {
                            Thread.sleep(10); // hold the bytes, read no more: the other side waits for ever
                        }
                        out.write(buffer, 0, read);
                    }
                } catch (IOException | InterruptedException e) {
                    // closed
                } finally {
                    close();
                }
            }, "wedging-proxy-pump");
            pump.setDaemon(true);
            pump.start();
        }

        void close() {
            try {
                client.close();
                redis.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
