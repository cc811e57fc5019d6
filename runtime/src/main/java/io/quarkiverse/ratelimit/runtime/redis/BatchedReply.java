package io.quarkiverse.ratelimit.runtime.redis;

import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * One decision's reply within a batch's ({@code lua/rate_limit_batch.lua}): the batch answers one flat array, and a
 * decision's reply is its run of values there, read as the array {@code rate_limit.lua} answers alone. A view, not a
 * copy: a batch's replies are read once, on the event loop that received them.
 */
final class BatchedReply implements Response {

    private final Response batch;
    private final int from;
    private final int size;

    BatchedReply(Response batch, int from, int size) {
        this.batch = batch;
        this.from = from;
        this.size = size;
    }

    @Override
    public ResponseType type() {
        return ResponseType.MULTI;
    }

    @Override
    public Response get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(index);
        }
        return batch.get(from + index);
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isArray() {
        return true;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < size; i++) {
            text.append(i == 0 ? "" : ", ").append(get(i));
        }
        return text.append(']').toString();
    }
}
