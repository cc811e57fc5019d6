package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * Decisions asked for on one event loop during one turn of it go to Redis together, at the end of the turn: one call
 * of the library's batch function ({@code lua/rate_limit_batch.lua}) decides them all, each exactly as alone, and
 * Redis runs one command for many decisions. An event loop's turn handles whatever arrived at once (the requests read
 * together, the replies of a batch and the calls they let go on), so there is no timer and no wait: a lone decision is
 * sent at the end of its turn, alone, as before. Batches stay pipelined with everything else in flight. A decision
 * asked for off the event loop (a blocking caller's worker thread) goes alone. In a cluster, a batch holds the decisions
 * of one hash slot (one tenant's, or tenants whose tags share a slot).
 * <p>
 * A batch that fails fails each of its decisions, which their failure modes then decide, as a failed decision always
 * was; one that found the library missing (a restarted Redis) sends each decision again alone, on the path that
 * recovers. An error reply for one decision of a batch (a key of another type) fails that decision only. Vert.x
 * futures, not Mutiny: this runs for every decision.
 */
final class DecisionBatches {

    /** Sends one decision alone: {@code ScriptRunner}'s usual path, with its recoveries. */
    interface Alone {
        Future<Response> send(LuaScript script, List<String> keys, List<String> args);
    }

    /** Each event loop's decisions of its current turn; only that event loop's thread touches its own. */
    private final ThreadLocal<Turn> turns = ThreadLocal.withInitial(Turn::new);
    private final int maxDecisions;
    private final String batchFunction;
    private final Alone alone;
    private final Function<Request, Future<Response>> transmit;
    private final boolean cluster;

    /**
     * @param maxDecisions the most decisions one batch carries
     * @param batchFunction the library's batch function
     * @param transmit sends a request on the decisions' connections
     * @param cluster whether Redis is a cluster: a batch then holds decisions of one hash slot
     */
    DecisionBatches(int maxDecisions, String batchFunction, Alone alone, Function<Request, Future<Response>> transmit,
            boolean cluster) {
        this.maxDecisions = maxDecisions;
        this.batchFunction = batchFunction;
        this.alone = alone;
        this.transmit = transmit;
        this.cluster = cluster;
    }

    /** The reply of one decision ({@code rate_limit.lua}'s), sent alone or in a batch. */
    Future<Response> decide(LuaScript script, List<String> keys, List<String> args) {
        Context context = Vertx.currentContext();
        if (context == null || !Context.isOnEventLoopThread()) {
            return alone.send(script, keys, args);
        }
        Turn turn = turns.get();
        Pending pending = new Pending(script, keys, args);
        turn.queued.add(pending);
        if (turn.queued.size() == 1) {
            // runs after what this turn of the event loop still has to do: the other requests and replies it read
            context.runOnContext(ignored -> send(turn));
        }
        return pending.reply.future();
    }

    private void send(Turn turn) {
        List<Pending> queued = turn.queued;
        turn.queued = new ArrayList<>();
        if (!cluster || queued.size() == 1) {
            send(queued);
            return;
        }
        // a cluster runs one command on one slot's master: the decisions of one slot go together (all keys of a
        // decision share its hash tag), in the order they came
        Map<Integer, List<Pending>> bySlot = new LinkedHashMap<>();
        for (Pending pending : queued) {
            bySlot.computeIfAbsent(HashSlot.of(pending.keys.get(0)), ignored -> new ArrayList<>()).add(pending);
        }
        bySlot.values().forEach(this::send);
    }

    private void send(List<Pending> queued) {
        // at least two calls, so that the client works on the first one's replies while Redis runs the second
        int size = Math.min(maxDecisions, (queued.size() + 1) / 2);
        for (int from = 0; from < queued.size(); from += size) {
            List<Pending> batch = queued.subList(from, Math.min(queued.size(), from + size));
            if (batch.size() == 1) {
                Pending pending = batch.get(0);
                alone.send(pending.script, pending.keys, pending.args).onComplete(pending.reply);
            } else {
                transmit.apply(request(batch)).onComplete(done -> answer(batch, done));
            }
        }
    }

    private void answer(List<Pending> batch, AsyncResult<Response> done) {
        if (done.failed()) {
            boolean functionMissing = LibraryLoader.isFunctionMissing(done.cause());
            for (Pending pending : batch) {
                if (functionMissing) {
                    alone.send(pending.script, pending.keys, pending.args).onComplete(pending.reply);
                } else {
                    pending.reply.fail(done.cause());
                }
            }
            return;
        }
        Response replies = done.result();
        for (int i = 0; i < batch.size(); i++) {
            Response reply = replies.get(i);
            if (reply != null && reply.type() == ResponseType.ERROR) {
                batch.get(i).reply.fail(reply instanceof Throwable failure ? failure
                        : new IllegalStateException(reply.toString()));
            } else {
                batch.get(i).reply.complete(reply);
            }
        }
    }

    /** {@code FCALL} of the batch function: every decision's keys, then the count and each one's arguments. */
    private Request request(List<Pending> batch) {
        int keys = 0;
        for (Pending pending : batch) {
            keys += pending.keys.size();
        }
        Request request = Request.cmd(Command.FCALL).arg(batchFunction).arg(keys);
        for (Pending pending : batch) {
            for (String key : pending.keys) {
                request.arg(key);
            }
        }
        request.arg(batch.size());
        for (Pending pending : batch) {
            request.arg(pending.keys.size()).arg(pending.args.size());
            for (String arg : pending.args) {
                request.arg(arg);
            }
        }
        return request;
    }

    /** The decisions asked for during the current turn of one event loop. */
    private static final class Turn {
        private List<Pending> queued = new ArrayList<>();
    }

    private static final class Pending {
        private final LuaScript script;
        private final List<String> keys;
        private final List<String> args;
        private final Promise<Response> reply = Promise.promise();

        Pending(LuaScript script, List<String> keys, List<String> args) {
            this.script = script;
            this.keys = keys;
            this.args = args;
        }
    }
}
