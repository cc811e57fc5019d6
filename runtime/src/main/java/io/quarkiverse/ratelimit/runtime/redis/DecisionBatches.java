package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * Decisions that follow one in flight on the same lane (the calling thread's, as its pipelined connection) queue behind
 * it, and go together when its reply arrives: one call of the library's batch function ({@code lua/rate_limit_batch.lua})
 * decides them all, each exactly as alone, and Redis runs one command for many decisions. There is no timer: at low
 * load a decision finds its lane idle and goes at once, alone; under load the batches grow with what queued during
 * one round trip.
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

    private final Lane[] lanes;
    private final int maxDecisions;
    private final String batchFunction;
    private final Alone alone;
    private final Function<Request, Future<Response>> transmit;

    /**
     * @param lanes how many lanes (one per pipelined connection)
     * @param maxDecisions the most decisions one batch carries
     * @param batchFunction the library's batch function
     * @param transmit sends a request on the decisions' connections
     */
    DecisionBatches(int lanes, int maxDecisions, String batchFunction, Alone alone,
            Function<Request, Future<Response>> transmit) {
        this.lanes = new Lane[lanes];
        for (int i = 0; i < lanes; i++) {
            this.lanes[i] = new Lane();
        }
        this.maxDecisions = maxDecisions;
        this.batchFunction = batchFunction;
        this.alone = alone;
        this.transmit = transmit;
    }

    /** The reply of one decision ({@code rate_limit.lua}'s), sent alone or in a batch. */
    Future<Response> decide(LuaScript script, List<String> keys, List<String> args) {
        Lane lane = lanes[(int) (Thread.currentThread().getId() % lanes.length)];
        synchronized (lane) {
            if (lane.sending) {
                Pending pending = new Pending(script, keys, args);
                lane.queued.add(pending);
                return pending.reply.future();
            }
            lane.sending = true;
        }
        Future<Response> reply = alone.send(script, keys, args);
        reply.onComplete(ignored -> sendQueued(lane));
        return reply;
    }

    /** Sends what queued on the lane while its last call was in flight, or leaves the lane idle. */
    private void sendQueued(Lane lane) {
        List<Pending> batch;
        synchronized (lane) {
            if (lane.queued.isEmpty()) {
                lane.sending = false;
                return;
            }
            batch = new ArrayList<>(Math.min(lane.queued.size(), maxDecisions));
            while (!lane.queued.isEmpty() && batch.size() < maxDecisions) {
                batch.add(lane.queued.poll());
            }
        }
        if (batch.size() == 1) {
            Pending pending = batch.get(0);
            Future<Response> reply = alone.send(pending.script, pending.keys, pending.args);
            reply.onComplete(ignored -> sendQueued(lane));
            reply.onComplete(pending.reply);
            return;
        }
        Future<Response> reply = transmit.apply(request(batch));
        reply.onComplete(ignored -> sendQueued(lane));
        reply.onComplete(done -> answer(batch, done));
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

    /** One thread's queue (its pipelined connection's), and whether a call of it is in flight. */
    private static final class Lane {
        private final ArrayDeque<Pending> queued = new ArrayDeque<>();
        private boolean sending;
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
