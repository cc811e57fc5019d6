package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import io.grpc.Status;
import io.quarkiverse.ratelimit.it.grpc.QuoteReply;
import io.quarkiverse.ratelimit.it.grpc.QuoteService;

/**
 * The production shape over gRPC: two packaged instances share one Redis; 60 concurrent quote calls of one tenant,
 * alternating between the instances through the generated stubs, are admitted exactly up to the tenant's 5, the rest
 * refused with {@code RESOURCE_EXHAUSTED}; another tenant's calls are its own.
 */
class GrpcTwoInstancesIT {

    @org.junit.jupiter.api.extension.RegisterExtension
    static final Fleet fleet = Fleet.of(AppInstance::startTwo);

    @Test
    void twoInstancesAdmitExactlyATenantsQuotesBetweenThem() throws Exception {
        String tenant = "grpc-fleet-" + UUID.randomUUID();
        try (QuoteChannel first = new QuoteChannel(fleet.instance(0).uri());
                QuoteChannel second = new QuoteChannel(fleet.instance(1).uri())) {
            List<Future<QuoteReply>> calls = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                calls.add((i % 2 == 0 ? first : second).future(tenant).quote(QuoteChannel.to("Porto")));
            }
            Map<Status.Code, Integer> byCode = new TreeMap<>();
            for (Future<QuoteReply> call : calls) {
                Status.Code code;
                try {
                    call.get();
                    code = Status.Code.OK;
                } catch (ExecutionException failed) {
                    code = QuoteChannel.code(failed.getCause());
                }
                byCode.merge(code, 1, Integer::sum);
            }
            assertThat(byCode).containsExactlyInAnyOrderEntriesOf(Map.of(Status.Code.OK, QuoteService.QUOTES_A_DAY,
                    Status.Code.RESOURCE_EXHAUSTED, 60 - QuoteService.QUOTES_A_DAY));

            assertThat(second.blocking("grpc-fleet-" + UUID.randomUUID()).quote(QuoteChannel.to("Porto")).getCents())
                    .as("another tenant's quotes are its own").isEqualTo(1205);
        }
    }
}
