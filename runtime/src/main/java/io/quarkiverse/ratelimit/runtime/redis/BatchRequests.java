package io.quarkiverse.ratelimit.runtime.redis;

import java.util.List;

import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * The Java half of the batch function's arguments ({@code lua/rate_limit_batch.lua}): how the decisions of one batch
 * are written into one {@code FCALL}, as short as their likeness allows. {@code DecisionBatches} chooses what goes
 * together; this only writes it.
 */
final class BatchRequests {

    /** In a batch, a decision with the same keys and arguments as the one before it. */
    private static final String REPEATED = "0";
    /** In a batch, followed by a key: a decision with the arguments of the last one sent whole. */
    private static final String SAME_LIMITS = "=";

    /** One decision of a batch: its keys (all in one slot) and its script arguments. */
    interface Decision {

        List<String> keys();

        List<String> args();
    }

    private BatchRequests() {
    }

    /**
     * {@code FCALL} of the batch function: the first decision's keys declared (they route the call, and share one
     * slot), then the count and each decision: whole (its keys and arguments), or short when it repeats the one before
     * it ({@link #REPEATED}) or has one key and the arguments of the last decision sent whole ({@link #SAME_LIMITS}).
     */
    static Request request(String batchFunction, List<? extends Decision> batch) {
        List<String> routing = batch.get(0).keys();
        Request request = Request.cmd(Command.FCALL).arg(batchFunction).arg(routing.size());
        for (String key : routing) {
            request.arg(key);
        }
        request.arg(batch.size());
        Decision whole = null; // the last decision sent whole: its arguments are the reference
        List<String> previousKeys = null;
        for (Decision decision : batch) {
            List<String> keys = decision.keys();
            if (whole != null && decision.args().equals(whole.args())) {
                if (keys.equals(previousKeys)) {
                    request.arg(REPEATED); // a hot tenant's calls
                    continue;
                }
                if (keys.size() == 1) { // so had the whole one: the same arguments, so as many limits and keys
                    request.arg(SAME_LIMITS).arg(keys.get(0)); // another tenant's call of the same endpoint
                    previousKeys = keys;
                    continue;
                }
            }
            whole = decision;
            previousKeys = keys;
            request.arg(keys.size()).arg(decision.args().size());
            for (String key : keys) {
                request.arg(key);
            }
            for (String arg : decision.args()) {
                request.arg(arg);
            }
        }
        return request;
    }
}
