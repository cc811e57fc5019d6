package io.quarkiverse.ratelimit.localredis;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal blocking RESP2 connection, independent of the client under test: tests use it to look into Redis
 * (counters, TTLs, SCRIPT FLUSH) without going through the code they check.
 * <p>
 * Replies decode to: simple string and bulk string to {@link String}, integer to {@link Long}, array to {@link List},
 * null to {@code null}; an error reply throws {@link RedisErrorReply}.
 */
public final class RespConnection implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RespConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    public static RespConnection open(String host, int port, Duration timeout) {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            return new RespConnection(socket);
        } catch (IOException e) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // already failing
            }
            throw new UncheckedIOException("Cannot connect to Redis at " + host + ":" + port, e);
        }
    }

    public Object command(String... args) {
        try {
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (String arg : args) {
                byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
                request.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                request.write(bytes);
                request.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.write(request.toByteArray());
            out.flush();
            return readReply();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The next reply Redis sends without a command: a message on a channel this connection subscribed to. Fails with
     * {@link java.net.SocketTimeoutException} (in an {@link UncheckedIOException}) when none comes within the
     * connection's timeout.
     */
    public Object receive() {
        try {
            return readReply();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Object readReply() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new IOException("Connection closed by Redis");
        }
        String line = readLine();
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new RedisErrorReply(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                byte[] data = in.readNBytes(length + 2);
                return new String(data, 0, length, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    try {
                        items.add(readReply());
                    } catch (RedisErrorReply error) {
                        items.add(error);
                    }
                }
                return items;
            }
            default:
                throw new IOException("Unexpected RESP type " + (char) type);
        }
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new IOException("Connection closed by Redis");
            }
            line.append((char) c);
        }
        in.read(); // '\n'
        return line.toString();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    /** An error reply from Redis ({@code -ERR ...}, {@code -NOSCRIPT ...}). */
    public static final class RedisErrorReply extends RuntimeException {
        public RedisErrorReply(String message) {
            super(message);
        }
    }
}
