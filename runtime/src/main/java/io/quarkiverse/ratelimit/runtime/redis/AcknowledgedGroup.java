package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import io.vertx.core.Promise;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * The durable decisions waiting for one pipelined connection (group commit): they are sent in groups, each group
 * followed by one {@code WAIT}, and one group at a time is in flight. Decisions that arrive while a group waits for its
 * acknowledgement form the next group, so one {@code WAIT} acknowledges every decision pipelined before it, however
 * many are in flight. One group at a time also keeps the order right: a {@code WAIT} sent from another thread could
 * otherwise reach the connection before a decision it is meant to cover.
 */
final class AcknowledgedGroup {

    /** A group's size bound, well under the connection's queue of unanswered requests (2048 by default). */
    static final int MAX_SIZE = 256;

    record Pending(Request request, Promise<Response> promise) {
    }

    private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
    private boolean inFlight;

    /** Queues a decision: whether the caller must now send a group (none was in flight). */
    synchronized boolean add(Request request, Promise<Response> promise) {
        waiting.add(new Pending(request, promise));
        if (inFlight) {
            return false;
        }
        inFlight = true;
        return true;
    }

    /** The next group to send, taken out of the queue; {@code null}, and no group in flight, when none waits. */
    synchronized List<Pending> next() {
        if (waiting.isEmpty()) {
            inFlight = false;
            return null;
        }
        List<Pending> group = new ArrayList<>(Math.min(waiting.size(), MAX_SIZE));
        while (!waiting.isEmpty() && group.size() < MAX_SIZE) {
            group.add(waiting.poll());
        }
        return group;
    }
}
