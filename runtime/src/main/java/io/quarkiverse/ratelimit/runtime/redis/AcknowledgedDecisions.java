package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayList;
import java.util.List;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Durable decisions ({@code quarkus.rate-limit.durable.replicas}) on the pipelined connections: each connection's
 * decisions go in groups ({@link AcknowledgedGroup}), each group followed by one {@code WAIT}, and a decision is
 * answered only once enough replicas acknowledged its group, or fails with {@link ReplicasNotAcknowledgedException}
 * when fewer did within the timeout (its write stays on the master).
 */
final class AcknowledgedDecisions {

    /** The pipelined connections, as the groups use them. */
    interface Connections {

        /** The connection of {@code slot}: open, or being opened. */
        Future<RedisConnection> ready(int slot);

        /** Sends on the connection of {@code slot} (a failure drops it, as for any decision). */
        Future<Response> send(int slot, RedisConnection connection, Request request);
    }

    private final Connections connections;
    private final AcknowledgedGroup[] groups;
    private final int replicas;
    private final long timeoutMillis;

    /**
     * @param slots how many pipelined connections there are
     * @param replicas how many replicas must acknowledge a decision
     * @param timeoutMillis how long a {@code WAIT} waits for them
     */
    AcknowledgedDecisions(Connections connections, int slots, int replicas, long timeoutMillis) {
        this.connections = connections;
        this.replicas = replicas;
        this.timeoutMillis = timeoutMillis;
        this.groups = new AcknowledgedGroup[slots];
        for (int slot = 0; slot < slots; slot++) {
            groups[slot] = new AcknowledgedGroup();
        }
    }

    /** Sends a durable decision on the connection of {@code slot}: its reply once its group was acknowledged. */
    Future<Response> send(int slot, Request request) {
        AcknowledgedGroup group = groups[slot];
        Promise<Response> reply = Promise.promise();
        if (group.add(request, reply)) {
            sendGroup(slot, group);
        }
        return reply.future();
    }

    /** Sends the next group and its {@code WAIT}, and once all are answered the group after it. */
    private void sendGroup(int slot, AcknowledgedGroup group) {
        List<AcknowledgedGroup.Pending> pending = group.next();
        if (pending == null) {
            return;
        }
        connections.ready(slot).onComplete(opened -> {
            if (opened.failed()) {
                pending.forEach(call -> call.promise().fail(opened.cause()));
                sendGroup(slot, group);
                return;
            }
            List<Future<Response>> replies = new ArrayList<>(pending.size() + 1);
            for (AcknowledgedGroup.Pending call : pending) {
                replies.add(connections.send(slot, opened.result(), call.request()));
            }
            Future<Response> acknowledgement = connections.send(slot, opened.result(),
                    Request.cmd(Command.WAIT).arg(replicas).arg(timeoutMillis));
            replies.add(acknowledgement);
            Future.join(replies).onComplete(ignored -> {
                answer(pending, replies, acknowledgement);
                sendGroup(slot, group);
            });
        });
    }

    /** Answers each decision of a group: its own failure, else the group's missing acknowledgement, else its reply. */
    private void answer(List<AcknowledgedGroup.Pending> pending, List<Future<Response>> replies,
            Future<Response> acknowledgement) {
        Throwable unacknowledged = acknowledgement.failed() ? acknowledgement.cause()
                : acknowledgement.result().toInteger() < replicas
                        ? new ReplicasNotAcknowledgedException(acknowledgement.result().toInteger(), replicas,
                                timeoutMillis)
                        : null;
        for (int i = 0; i < pending.size(); i++) {
            Future<Response> result = replies.get(i);
            Promise<Response> promise = pending.get(i).promise();
            if (result.failed()) {
                promise.fail(result.cause());
            } else if (unacknowledged != null) {
                promise.fail(unacknowledged);
            } else {
                promise.complete(result.result());
            }
        }
    }
}
