package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * Decisions asked for on one event loop during one turn of it go to Redis together, at the end of the turn: one call
 * of the library's batch function ({@code lua/rate_limit_batch.lua}) decides them all, each exactly as alone, and
 * Redis runs one command for many decisions. An event loop's turn handles whatever arrived at once (the requests read
 * together, the replies of a batch and the calls they let go on), so there is no timer and no wait: a lone decision is
 * sent at the end of its turn, alone. Batches stay pipelined with everything else in flight; a large one is answered
 * in two halves, and what the first half lets go on is on its way to Redis while the second is answered. Decisions
 * asked for off the event loop (blocking callers on worker or application threads) queue for one event loop, which
 * sends what has queued each time it gets to it: while it is busy, more queue and go together, and a lone caller's
 * decision goes at once. In a cluster, a batch holds the decisions of one master, by the slots' owners last heard
 * ({@link RedisTopology}; of one hash slot until they are known): the batch function may touch keys of several slots
 * of its node, and the call is routed by its first decision's keys.
 * <p>
 * A batch that fails fails each of its decisions, which their failure modes then decide, as a failed decision always
 * was; one that found the library missing (a restarted Redis) sends each decision again alone, on the path that
 * recovers. An error reply for one decision of a batch (a key of another type) fails that decision only; a decision
 * whose keys the node does not own (the owners changed since last heard) is sent again alone, and the client follows
 * the cluster's redirection. Vert.x futures, not Mutiny: this runs for every decision.
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
    /** Whether Redis is a cluster, and which master owns a key's slot. */
    private final RedisTopology topology;
    /** Decisions asked for off the event loop, until the event loop that sends them gets to them. */
    private final Queue<Pending> offLoop = new ConcurrentLinkedQueue<>();
    /** Whether that event loop has been asked to send what queued off it (set by the caller that asks). */
    private final AtomicBoolean offLoopDrainAsked = new AtomicBoolean();
    /** The event loop that sends them. */
    private final Context offLoopContext;

    /**
     * @param maxDecisions the most decisions one batch carries
     * @param batchFunction the library's batch function
     * @param transmit sends a request on the decisions' connections
     * @param topology in a cluster, a batch holds the decisions of one master (of one slot while the masters are not
     *        known)
     * @param offLoopContext the event-loop context that sends the decisions asked for off the event loop
     */
    DecisionBatches(int maxDecisions, String batchFunction, Alone alone, Function<Request, Future<Response>> transmit,
            RedisTopology topology, Context offLoopContext) {
        this.offLoopContext = offLoopContext;
        this.maxDecisions = maxDecisions;
        this.batchFunction = batchFunction;
        this.alone = alone;
        this.transmit = transmit;
        this.topology = topology;
    }

    /** The reply of one decision ({@code rate_limit.lua}'s), sent alone or in a batch. */
    Future<Response> decide(LuaScript script, List<String> keys, List<String> args) {
        Pending pending = new Pending(script, keys, args, Promise.promise());
        Context context = Vertx.currentContext();
        if (context == null || !Context.isOnEventLoopThread()) {
            offLoop.add(pending);
            if (offLoopDrainAsked.compareAndSet(false, true)) {
                offLoopContext.runOnContext(ignored -> sendOffLoop());
            }
            return pending.reply.future();
        }
        Turn turn = turns.get();
        turn.queued.add(pending);
        if (turn.queued.size() == 1) {
            // runs after what this turn of the event loop still has to do: the other requests and replies it read
            context.runOnContext(ignored -> sendTurn(turn));
        }
        return pending.reply.future();
    }

    /**
     * Sends every decision queued off the event loop so far. The flag is cleared before the queue is read: a decision
     * queued after this read asks for another run, and one queued before it is sent by this one.
     */
    private void sendOffLoop() {
        offLoopDrainAsked.set(false);
        List<Pending> queued = new ArrayList<>();
        for (Pending pending = offLoop.poll(); pending != null; pending = offLoop.poll()) {
            queued.add(pending);
        }
        if (!queued.isEmpty()) {
            sendByNode(queued);
        }
    }

    private void sendTurn(Turn turn) {
        List<Pending> queued = turn.queued;
        turn.queued = new ArrayList<>();
        sendByNode(queued);
    }

    private void sendByNode(List<Pending> queued) {
        if (!topology.cluster() || queued.size() == 1) {
            sendInCalls(queued, true);
            return;
        }
        // a cluster runs one command on one master: the decisions of one master go together (all keys of a decision
        // share its hash tag), in the order they came; of one slot while the masters are not known
        Map<Object, List<Pending>> byNode = new LinkedHashMap<>();
        for (Pending pending : queued) {
            String key = pending.keys.get(0);
            String node = topology.nodeOf(key);
            Object group = RedisTopology.UNKNOWN.equals(node) ? (Object) HashSlot.of(key) : node;
            byNode.computeIfAbsent(group, ignored -> new ArrayList<>()).add(pending);
        }
        // several masters work at once on their batches; one master alone gets its batch in two calls
        boolean split = byNode.size() == 1;
        for (List<Pending> batch : byNode.values()) {
            sendInCalls(batch, split);
        }
    }

    /**
     * Whether every decision is on the keys of the first (one hot tenant): such a batch is not split, as its decisions
     * run one after the other in Redis anyway, and each call would read and write the key (measured: split, one hot
     * key decided about a tenth less, at a fifth more Redis CPU a decision).
     */
    private static boolean oneKey(List<Pending> queued) {
        List<String> first = queued.get(0).keys;
        for (int i = 1; i < queued.size(); i++) {
            if (!queued.get(i).keys.equals(first)) {
                return false;
            }
        }
        return true;
    }

    /**
     * @param split whether to send at least two calls, so that the client works on the first one's replies while Redis
     *        runs the second: for a batch that is answered in halves anyway, never for one tenant's decisions
     *        ({@link #oneKey}). A smaller batch goes in one call, which saves Redis a call's own work, about that of a
     *        decision (4 in flight on spread keys: 0.84 of the Lettuce baseline's rate in one call, 0.73 in two).
     */
    private void sendInCalls(List<Pending> queued, boolean split) {
        boolean twoCalls = split && queued.size() >= ANSWERED_IN_HALVES_FROM && !oneKey(queued);
        int size = Math.min(maxDecisions, twoCalls ? (queued.size() + 1) / 2 : queued.size());
        for (int from = 0; from < queued.size(); from += size) {
            List<Pending> batch = queued.subList(from, Math.min(queued.size(), from + size));
            if (batch.size() == 1) {
                Pending pending = batch.get(0);
                alone.send(pending.script, pending.keys, pending.args).onComplete(pending.reply);
            } else {
                transmit.apply(BatchRequests.request(batchFunction, batch)).onComplete(done -> answer(batch, done));
            }
        }
    }

    private void answer(List<Pending> batch, AsyncResult<Response> done) {
        if (done.failed()) {
            boolean functionMissing = RedisErrors.isFunctionMissing(done.cause());
            for (Pending pending : batch) {
                if (functionMissing) {
                    alone.send(pending.script, pending.keys, pending.args).onComplete(pending.reply);
                } else {
                    pending.reply.fail(done.cause());
                }
            }
            return;
        }
        // one flat array: each decision's four integers per limit (and its clock when it waits), or one error reply for
        // a decision that failed
        Response replies = done.result();
        Context context = Vertx.currentContext();
        if (batch.size() >= ANSWERED_IN_HALVES_FROM && context != null && Context.isOnEventLoopThread()) {
            int half = batch.size() / 2;
            int second = answer(batch.subList(0, half), replies, 0);
            context.runOnContext(ignored -> answer(batch.subList(half, batch.size()), replies, second));
        } else {
            answer(batch, replies, 0);
        }
    }

    /**
     * From how many decisions a batch is answered in halves, the second in a later task. Else, with many decisions in
     * flight, the instance waits while Redis decides a batch and Redis waits while the instance answers it: never both
     * at once (64 of one hot key in flight: 1.6 to 1.7 times the rate in halves). Smaller ones are not worth a task.
     */
    private static final int ANSWERED_IN_HALVES_FROM = 16;

    /** Answers {@code decisions} from their replies, which start at {@code at}; where the next decision's start. */
    private int answer(List<Pending> decisions, Response replies, int at) {
        for (Pending pending : decisions) {
            Response first = at < replies.size() ? replies.get(at) : null;
            if (first != null && first.type() == ResponseType.ERROR) {
                at++;
                String error = first.toString();
                if (RedisErrors.isNotLocal(error)) {
                    // its master was not the one the batch went to (a resharding, a failover): alone, the client
                    // follows the cluster's redirection
                    alone.send(pending.script, pending.keys, pending.args).onComplete(pending.reply);
                } else {
                    pending.reply.fail(first instanceof Throwable failure ? failure : new IllegalStateException(error));
                }
                continue;
            }
            int size = ScriptReplies.replySize(replies, at, pending.keys.size());
            if (at + size > replies.size()) {
                // cannot happen while the Java and Lua halves agree; left unanswered, it would wait for the sweep
                pending.reply.fail(new IllegalStateException(
                        "The batch answered " + replies.size() + " values, too few for its decisions"));
            } else {
                pending.reply.complete(new BatchedReply(replies, at, size));
            }
            at += size;
        }
        return at;
    }

    /** The decisions asked for during the current turn of one event loop. */
    private static final class Turn {
        private List<Pending> queued = new ArrayList<>();
    }

    /** A decision waiting for its batch's reply. */
    private record Pending(LuaScript script, List<String> keys, List<String> args,
            Promise<Response> reply) implements BatchRequests.Decision {
    }
}
