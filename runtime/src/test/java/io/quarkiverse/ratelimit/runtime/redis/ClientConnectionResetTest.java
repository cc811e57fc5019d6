package io.quarkiverse.ratelimit.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * The {@code AssertionError} from {@code RedisStandaloneConnection.end} that a test run logs when a connection resets
 * mid-reply is the Vert.x Redis client's own, not the extension's use of it: the bare client, with no part of the
 * extension, gets it from a server that answers half a reply and resets the connection. The client gives its socket's
 * exception handler to {@code fail} and its close handler to {@code end}; a reset fires both, and {@code end} asserts the
 * connection was not closed, which {@code fail} just did. With assertions off (production) {@code end} only releases
 * what {@code fail} released, and the call fails with the reset as it should: which this test checks too. A client
 * that no longer throws makes the first assertion fail: the failure-modes page's note can then go.
 */
class ClientConnectionResetTest {

    @Test
    void aResetMidReplyFailsTheCallAndTheClientAssertsOnItsSecondEnd() throws Exception {
        Vertx vertx = Vertx.vertx();
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        vertx.exceptionHandler(uncaught::add);
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread halfAReply = new Thread(() -> {
                try (Socket connection = server.accept()) {
                    InputStream in = connection.getInputStream();
                    in.read(new byte[256]); // the PING
                    OutputStream out = connection.getOutputStream();
                    out.write("$10\r\nhal".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    connection.setSoLinger(true, 0); // closed with a reset, not a FIN
                } catch (Exception ignored) {
                    // the test's assertions say what happened
                }
            });
            halfAReply.start();
            Redis client = Redis.createClient(vertx, new RedisOptions().setProtocolNegotiation(false)
                    .addConnectionString("redis://127.0.0.1:" + server.getLocalPort()));

            Future<Response> ping = client.connect().compose(connection -> connection.send(Request.cmd(Command.PING)));

            Awaitility.await().atMost(Duration.ofSeconds(10)).until(ping::isComplete);
            assertThat(ping.failed()).as("the call fails with the reset").isTrue();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !uncaught.isEmpty());
            assertThat(uncaught).as("the client's end() after its fail(), with assertions on")
                    .anySatisfy(failure -> assertThat(failure).isInstanceOf(AssertionError.class)
                            .hasStackTraceContaining("RedisStandaloneConnection.end"));
            halfAReply.join(TimeUnit.SECONDS.toMillis(10));
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
