package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;

/** The waiting examples the docs show: the carrier quota from code, the label printer's endpoint. */
@QuarkusTest
@WithTestResource(value = LocalRedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class WaitingExamplesTest {

    @Inject
    CarrierQuota quota;

    @Test
    void theCarrierQuotaSendsABurstInTurnAndRefusesWhatWouldWaitTooLong() {
        String account = "account-" + UUID.randomUUID();
        List<Uni<String>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(quota.send(account, () -> Uni.createFrom().item("label")).onFailure(
                    RateLimitExceededException.class).recoverWithItem("refused"));
        }
        List<String> answers = Uni.join().all(calls).andFailFast().await().indefinitely();
        long sent = answers.stream().filter("label"::equals).count();
        // a call whose timer fires late (a loaded machine) takes a later slot instead of going late: fewer may fit
        assertThat(sent).as("5 at once, then one every 200 ms for 2 s: 15 (16 if the calls took 200 ms to leave; 13 or"
                + " 14 when turns came late)").isBetween(13L, 16L);
        assertThat(answers).filteredOn("refused"::equals).hasSize(20 - (int) sent);
    }

    @Test
    void theLabelPrinterServesEveryRequestOfABurstItCanWithinThreeSeconds() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(6);
        try {
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                statuses.add(clients.submit((Callable<Integer>) () -> given().post("/printer/labels").statusCode()));
            }
            for (Future<Integer> status : statuses) {
                assertThat(status.get()).as("slots 0, 0.5 ... 2.5 s: all within the 3 s maxWait").isEqualTo(200);
            }
        } finally {
            clients.shutdownNow();
        }
    }
}
