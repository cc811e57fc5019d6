package io.quarkiverse.ratelimit.it.grpc;

import io.quarkiverse.ratelimit.ConcurrencyLimited;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.grpc.GrpcService;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * A gRPC service limited as REST endpoints are: per tenant (the {@code x-tenant-id} metadata, the tenant header of the
 * application), refused with {@code RESOURCE_EXHAUSTED}. Decided on the event loop, as the methods return Mutiny types.
 */
// tag::service[]
@GrpcService
public class QuoteService implements Quotes {

    public static final int QUOTES_A_DAY = 5;

    @Override
    @RateLimited(name = "grpc-quotes", limit = QUOTES_A_DAY, window = "1d")
    public Uni<QuoteReply> quote(QuoteRequest request) {
        return Uni.createFrom().item(QuoteReply.newBuilder().setDestination(request.getDestination())
                .setCents(1200 + request.getDestination().length()).build());
    }

    /** A stream is one call: limited when it starts, per tenant. */
    @Override
    @RateLimited(name = "grpc-rate-tables", limit = 3, window = "1d")
    @ConcurrencyLimited(name = "grpc-rate-tables-open", limit = 2)
    public Multi<QuoteReply> rateTable(QuoteRequest request) {
        return Multi.createFrom().range(1, 4).map(zone -> QuoteReply.newBuilder()
                .setDestination(request.getDestination() + "/zone-" + zone).setCents(1000L * zone).build());
    }
}
// end::service[]
