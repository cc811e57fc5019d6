package io.quarkiverse.ratelimit.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.netty.channel.EventLoop;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * A call sent on an event loop travels on the connection that lives on that event loop: it is written, answered and
 * handed back on that one thread, so it is answered even while every other event loop is busy.
 */
class PipelinedConnectionsTest {

    private final LocalRedisServer server = LocalRedisServer.start();
    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(3));
    private final RedisOptions options = new RedisOptions().setConnectionString(server.uri());

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        server.close();
    }

    @Test
    void aCallSentOnAnEventLoopIsAnsweredWhileEveryOtherEventLoopIsBusy() throws Exception {
        // the client Quarkus would build, made off the event loops: its own connections live on one of them
        PipelinedConnections connections = new PipelinedConnections(new ConnectionHomes(vertx,
                Redis.createClient(vertx, options), () -> new RedisOptions(options), OptionalInt.empty()), false, 0, 1000);
        List<ContextInternal> loops = contextOnEachEventLoop();

        for (ContextInternal caller : loops) {
            CountDownLatch release = new CountDownLatch(1);
            List<CountDownLatch> blocked = new ArrayList<>();
            for (ContextInternal other : loops) {
                if (other != caller) {
                    CountDownLatch started = new CountDownLatch(1);
                    other.runOnContext(ignored -> {
                        started.countDown();
                        await(release);
                    });
                    blocked.add(started);
                }
            }
            for (CountDownLatch started : blocked) {
                assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            }
            CompletableFuture<String> answer = new CompletableFuture<>();
            caller.runOnContext(ignored -> connections.send(Request.cmd(Command.PING), PipelinedConnectionsTest::noPool)
                    .onComplete(reply -> {
                        if (reply.succeeded()) {
                            answer.complete(reply.result().toString());
                        } else {
                            answer.completeExceptionally(reply.cause());
                        }
                    }));
            try {
                assertThat(answer.get(10, TimeUnit.SECONDS)).as("the answer, with every other event loop busy")
                        .isEqualTo("PONG");
            } finally {
                release.countDown();
            }
        }
        connections.shutdown();
    }

    private List<ContextInternal> contextOnEachEventLoop() {
        VertxInternal internal = (VertxInternal) vertx;
        ContextInternal any = internal.createEventLoopContext();
        List<ContextInternal> contexts = new ArrayList<>();
        internal.getEventLoopGroup().forEach(loop -> contexts
                .add(internal.createEventLoopContext((EventLoop) loop, any.workerPool(), any.classLoader())));
        assertThat(contexts).hasSize(3);
        return contexts;
    }

    private static Future<Response> noPool(Request request) {
        return Future.failedFuture("the pool is not part of this test");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
