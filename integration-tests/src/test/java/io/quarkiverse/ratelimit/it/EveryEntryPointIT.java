package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.it.entry.EntryPointsResource;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * Every per-call promise holds on every way into a limit, on two packaged instances sharing one Redis: the promises
 * ({@link Promise}) crossed with the entry points ({@link EntryPoint}), one test per cell, built from the two tables so
 * that a new entry point or a new promise cannot skip a cell. A cell that does not apply says why (a skipped test with
 * its reason), never passes silently. Each cell changes on one instance and checks on the other.
 */
class EveryEntryPointIT {

    static final String BLOCKED = "entry-blocked";
    static final String EXEMPT = "entry-exempt";
    static final int LIMIT = EntryPointsResource.LIMIT;
    /** How long a change made on one instance may take to apply on the other (the invalidation bound, with margin). */
    static final Duration PROPAGATION = Duration.ofSeconds(5);

    @RegisterExtension
    static final Fleet fleet = Fleet.of(redis -> AppInstance.startTwo(redis,
            "quarkus.security.users.embedded.users.ops=ops",
            "quarkus.security.users.embedded.roles.ops=rate-limit-admin",
            "quarkus.rate-limit.blocked-tenants=" + BLOCKED,
            "quarkus.rate-limit.exempt-tenants=" + EXEMPT,
            // without Redis every limit refuses with 503; the breaker tries Redis again a second after it opened
            "quarkus.rate-limit.failure-mode=fail-closed",
            "quarkus.rate-limit.circuit-breaker.open-duration=1s"));

    /** How a way in is limited: by counting calls, or by holding slots. */
    enum Kind {
        RATE,
        CONCURRENCY
    }

    /** Every way into a limit, as the application exposes it ({@link EntryPointsResource}). */
    enum EntryPoint {
        REST_ENDPOINT("/entry/rest", Kind.RATE, "entry-rest"),
        CDI_BEAN("/entry/bean", Kind.RATE, "entry-bean"),
        REST_CLIENT("/entry/rest-client", Kind.RATE, "entry-client"),
        CONCURRENCY_LIMITED("/entry/concurrency", Kind.CONCURRENCY, null),
        ACQUIRE_SLOT("/entry/acquire-slot", Kind.CONCURRENCY, null),
        TRY_ACQUIRE("/entry/try-acquire", Kind.RATE, "try"),
        TRY_ACQUIRE_AND_AWAIT("/entry/try-acquire-blocking", Kind.RATE, "try"),
        TRY_ACQUIRE_ALL("/entry/try-acquire-all", Kind.RATE, "try"),
        ACQUIRE("/entry/acquire", Kind.RATE, "wait"),
        ACQUIRE_AND_AWAIT("/entry/acquire-blocking", Kind.RATE, "wait"),
        ACQUIRE_ALL("/entry/acquire-all", Kind.RATE, "wait");

        final String path;
        final Kind kind;
        /** The policy the admin API names ({@code entry-*}), or the programmatic limit ({@code try}, {@code wait}). */
        final String counters;

        EntryPoint(String path, Kind kind, String counters) {
            this.path = path;
            this.kind = kind;
            this.counters = counters;
        }

        boolean annotated() {
            return counters != null && counters.startsWith("entry-");
        }
    }

    /** Every promise made of each limited call. */
    enum Promise {
        REFUSED_AT_THE_LIMIT_WITH_A_RETRY_TIME,
        BLOCKED_BY_CONFIGURATION_WITHOUT_A_KEY_WRITTEN,
        BLOCKED_AND_UNBLOCKED_AT_RUN_TIME_FROM_THE_OTHER_INSTANCE,
        EXEMPT_WITHOUT_A_KEY_WRITTEN,
        RESET_FROM_THE_OTHER_INSTANCE,
        STATUS_TELLS_WHAT_IS_LEFT,
        REFUNDED_WHEN_THE_WORK_FAILS,
        KILL_SWITCH_OFF_ADMITS,
        KILL_SWITCH_SHADOW_ADMITS,
        FAIL_CLOSED_WITHOUT_REDIS,
        LISTED_AMONG_THE_REFUSED_MOST
    }

    @TestFactory
    Stream<DynamicTest> everyPromiseHoldsOnEveryEntryPoint() {
        List<DynamicTest> cells = new ArrayList<>();
        for (Promise promise : Promise.values()) {
            for (EntryPoint entry : EntryPoint.values()) {
                cells.add(DynamicTest.dynamicTest(promise + " / " + entry, () -> check(promise, entry)));
            }
        }
        return cells.stream();
    }

    private void check(Promise promise, EntryPoint entry) {
        switch (promise) {
            case REFUSED_AT_THE_LIMIT_WITH_A_RETRY_TIME -> refusedAtTheLimit(entry);
            case BLOCKED_BY_CONFIGURATION_WITHOUT_A_KEY_WRITTEN -> blockedByConfiguration(entry);
            case BLOCKED_AND_UNBLOCKED_AT_RUN_TIME_FROM_THE_OTHER_INSTANCE -> blockedAtRunTime(entry);
            case EXEMPT_WITHOUT_A_KEY_WRITTEN -> exempt(entry);
            case RESET_FROM_THE_OTHER_INSTANCE -> reset(entry);
            case STATUS_TELLS_WHAT_IS_LEFT -> status(entry);
            case REFUNDED_WHEN_THE_WORK_FAILS -> refunded(entry);
            case KILL_SWITCH_OFF_ADMITS -> killSwitch(entry, "off");
            case KILL_SWITCH_SHADOW_ADMITS -> killSwitch(entry, "shadow");
            case FAIL_CLOSED_WITHOUT_REDIS -> failClosed(entry);
            case LISTED_AMONG_THE_REFUSED_MOST -> listedAmongTheRefusedMost(entry);
        }
    }

    private void refusedAtTheLimit(EntryPoint entry) {
        String tenant = tenant();
        exhaust(entry, tenant);
        for (int instance = 0; instance < 2; instance++) {
            Response refused = call(instance, entry, tenant);
            assertThat(refused.statusCode()).as(entry + " on instance " + instance).isEqualTo(429);
            assertThat(refused.header("Retry-After")).as(entry + " Retry-After").isNotBlank();
        }
    }

    /** Refused once on each instance: listed with its two refusals, fleet-wide, within a heartbeat. */
    private void listedAmongTheRefusedMost(EntryPoint entry) {
        String tenant = tenant();
        exhaust(entry, tenant);
        for (int instance = 0; instance < 2; instance++) {
            assertThat(call(instance, entry, tenant).statusCode()).as(entry + " on instance " + instance).isEqualTo(429);
        }
        await(entry + " listed with its 2 refusals", () -> ops(0).get("/q/rate-limit/refused?minutes=5&top=1000")
                .then().statusCode(200).extract().jsonPath()
                .getList("findAll { it.tenant == '" + tenant + "' }.refusals", Integer.class).equals(List.of(2)));
    }

    private void blockedByConfiguration(EntryPoint entry) {
        for (int instance = 0; instance < 2; instance++) {
            assertThat(call(instance, entry, BLOCKED).statusCode()).as(entry + " on instance " + instance)
                    .isEqualTo(403);
        }
        assertThat(keysOf(BLOCKED)).as("keys of a blocked tenant").isEmpty();
    }

    private void blockedAtRunTime(EntryPoint entry) {
        String tenant = tenant();
        assertThat(call(0, entry, tenant).statusCode()).isEqualTo(200);
        Set<String> keysBefore = keysOf(tenant);
        ops(1).put("/q/rate-limit/tenants/" + tenant + "/blocked").then().statusCode(204);
        await(entry + " refused on the other instance", () -> call(0, entry, tenant).statusCode() == 403);
        assertThat(call(1, entry, tenant).statusCode()).isEqualTo(403);
        assertThat(keysOf(tenant)).as("keys of a blocked tenant").isEqualTo(keysBefore);

        ops(1).delete("/q/rate-limit/tenants/" + tenant + "/blocked").then().statusCode(204);
        // the first call admitted is the tenant's second: the refused ones counted nothing
        await(entry + " admitted again on the other instance", () -> call(0, entry, tenant).statusCode() == 200);
        if (entry.kind == Kind.RATE) {
            for (int i = 2; i < LIMIT; i++) {
                assertThat(call(i % 2, entry, tenant).statusCode()).isEqualTo(200);
            }
            assertThat(call(1, entry, tenant).statusCode()).as("past the limit").isEqualTo(429);
        }
    }

    private void exempt(EntryPoint entry) {
        exhaust(entry, EXEMPT, LIMIT + 1);
        for (int instance = 0; instance < 2; instance++) {
            assertThat(call(instance, entry, EXEMPT).statusCode()).as(entry + " on instance " + instance)
                    .isEqualTo(200);
        }
        assertThat(keysOf(EXEMPT)).as("keys of an exempt tenant").isEmpty();
    }

    private void reset(EntryPoint entry) {
        Assumptions.assumeTrue(entry.kind == Kind.RATE,
                "a concurrency limit counts calls in flight: a slot is released, not reset");
        String tenant = tenant();
        exhaust(entry, tenant);
        assertThat(call(0, entry, tenant).statusCode()).isEqualTo(429);
        if (entry.annotated()) {
            ops(1).delete("/q/rate-limit/tenants/" + tenant + "/policies/" + entry.counters + "/counters").then()
                    .statusCode(200).body("countersReset", org.hamcrest.Matchers.equalTo(1));
        } else {
            instance(1).header("X-Tenant-Id", tenant).delete("/entry/limits/" + entry.counters).then().statusCode(204);
        }
        await(entry + " admitted on the other instance", () -> call(0, entry, tenant).statusCode() == 200);
    }

    private void status(EntryPoint entry) {
        Assumptions.assumeTrue(entry.kind == Kind.RATE,
                "a concurrency limit counts calls in flight, which its refusals report (the limit and a retry time)");
        String tenant = tenant();
        assertThat(remaining(entry, tenant)).as("a new tenant's").isEqualTo(LIMIT);
        assertThat(call(0, entry, tenant).statusCode()).isEqualTo(200);
        assertThat(remaining(entry, tenant)).as("after one call").isEqualTo(LIMIT - 1);
        exhaust(entry, tenant, LIMIT - 1);
        assertThat(remaining(entry, tenant)).as("at the limit").isZero();
    }

    private void refunded(EntryPoint entry) {
        Assumptions.assumeTrue(entry.kind == Kind.RATE,
                "a concurrency slot is given back when its call ends, whatever the outcome");
        String tenant = tenant();
        for (int i = 0; i <= LIMIT; i++) {
            Response failed = instance(i % 2).header("X-Tenant-Id", tenant).queryParam("fail", true).get(entry.path);
            assertThat(failed.statusCode()).as(entry + " failed call " + (i + 1)).isNotIn(200, 429);
        }
        exhaust(entry, tenant);
        assertThat(call(1, entry, tenant).statusCode()).as("past the limit").isEqualTo(429);
    }

    private void failClosed(EntryPoint entry) {
        String tenant = tenant();
        fleet.redis().pause();
        try {
            Response refused = call(0, entry, tenant);
            assertThat(refused.statusCode()).as(entry + " without Redis").isEqualTo(503);
            assertThat(refused.header("Retry-After")).as(entry + " Retry-After").isNotBlank();
        } finally {
            fleet.redis().resume();
        }
        // another tenant: the timed-out call reaches Redis when it wakes up, and may hold what it asked for
        String next = tenant();
        await(entry + " admitted once Redis answers", () -> call(0, entry, next).statusCode() == 200);
    }

    private void killSwitch(EntryPoint entry, String mode) {
        String tenant = tenant();
        exhaust(entry, tenant);
        assertThat(call(0, entry, tenant).statusCode()).isEqualTo(429);
        ops(1).contentType("application/json").body("{\"mode\": \"" + mode + "\"}").put("/q/rate-limit/switches")
                .then().statusCode(204);
        try {
            await(entry + " admitted on the other instance", () -> call(0, entry, tenant).statusCode() == 200);
        } finally {
            ops(1).delete("/q/rate-limit/switches").then().statusCode(204);
            await("switch cleared on both instances", () -> call(0, entry, tenant).statusCode() == 429
                    && call(1, entry, tenant).statusCode() == 429);
        }
    }

    /** A caller address is named in the admin API both ways a call can count under it. */
    @Test
    void aCallerAddressesCountersAreReadAndResetByItsAddress() {
        for (String path : List.of("/entry/signup", "/entry/guest")) {
            String policy = path.equals("/entry/signup") ? "entry-signup" : "entry-guest";
            ops(1).delete("/q/rate-limit/client-addresses/127.0.0.1/policies/" + policy + "/counters").then()
                    .statusCode(200);
            for (int i = 0; i < LIMIT; i++) {
                instance(i % 2).get(path).then().statusCode(200);
            }
            instance(0).get(path).then().statusCode(429);
            ops(1).get("/q/rate-limit/client-addresses/127.0.0.1/policies/" + policy).then().statusCode(200)
                    .body("[0].remaining", org.hamcrest.Matchers.equalTo(0));
            ops(1).delete("/q/rate-limit/client-addresses/127.0.0.1/policies/" + policy + "/counters").then()
                    .statusCode(200).body("countersReset", org.hamcrest.Matchers.equalTo(1));
            await(path + " admitted again on the other instance", () -> instance(0).get(path).statusCode() == 200);
            ops(1).get("/q/rate-limit/client-addresses/127.0.0.1/policies/" + policy).then().statusCode(200)
                    .body("[0].remaining", org.hamcrest.Matchers.equalTo(LIMIT - 1));
        }
    }

    @Test
    void aResetThatFindsNothingSaysSoAndANameNothingUsesIsNotFound() {
        ops(0).delete("/q/rate-limit/tenants/" + tenant() + "/policies/entry-rest/counters").then().statusCode(200)
                .body("countersReset", org.hamcrest.Matchers.equalTo(0));
        ops(0).delete("/q/rate-limit/tenants/t/policies/no-such-policy/counters").then().statusCode(404);
        ops(0).get("/q/rate-limit/tenants/t/policies/entry-signup").then().statusCode(400)
                .body(org.hamcrest.Matchers.containsString("per client address"));
        ops(0).get("/q/rate-limit/client-addresses/not-an-address/policies/entry-signup").then().statusCode(400);
    }

    @Test
    void aCallerAddressIsBlockedAndUnblockedAtRunTime() {
        instance(0).get("/entry/guest").then().statusCode(org.hamcrest.Matchers.oneOf(200, 429));
        ops(1).put("/q/rate-limit/client-addresses/127.0.0.1/blocked").then().statusCode(204);
        try {
            await("a guest from the address refused", () -> instance(0).get("/entry/guest").statusCode() == 403);
            // a call with a tenant is that tenant's, not the address's
            assertThat(call(0, EntryPoint.REST_ENDPOINT, tenant()).statusCode()).isEqualTo(200);
        } finally {
            ops(1).delete("/q/rate-limit/client-addresses/127.0.0.1/blocked").then().statusCode(204);
        }
        await("a guest from the address admitted again", () -> instance(0).get("/entry/guest").statusCode() != 403);
    }

    /** Takes the whole limit (rate) or the one slot (concurrency), alternating instances. */
    private void exhaust(EntryPoint entry, String tenant) {
        exhaust(entry, tenant, LIMIT);
    }

    private void exhaust(EntryPoint entry, String tenant, int calls) {
        if (entry.kind == Kind.CONCURRENCY) {
            instance(0).header("X-Tenant-Id", tenant).post("/entry/slots/hold").then().statusCode(200);
            return;
        }
        for (int i = 0; i < calls; i++) {
            assertThat(call(i % 2, entry, tenant).statusCode()).as(entry + " call " + (i + 1)).isEqualTo(200);
        }
    }

    private int remaining(EntryPoint entry, String tenant) {
        if (entry.annotated()) {
            return ops(1).get("/q/rate-limit/tenants/" + tenant + "/policies/" + entry.counters).then().statusCode(200)
                    .extract().path("[0].remaining");
        }
        return Integer.parseInt(instance(1).header("X-Tenant-Id", tenant)
                .get("/entry/limits/" + entry.counters + "/remaining").then().statusCode(200).extract().asString());
    }

    private static Response call(int instance, EntryPoint entry, String tenant) {
        return instance(instance).header("X-Tenant-Id", tenant).get(entry.path);
    }

    private static RequestSpecification instance(int index) {
        return given().baseUri(fleet.instance(index).uri().toString());
    }

    private static RequestSpecification ops(int index) {
        return instance(index).auth().preemptive().basic("ops", "ops");
    }

    /** The keys of the tenant's counters and leases in Redis. */
    private static Set<String> keysOf(String tenant) {
        Set<String> keys = new TreeSet<>();
        for (Object key : (List<?>) fleet.redis().command("KEYS", "*{" + tenant + "}*")) {
            keys.add(key.toString());
        }
        return keys;
    }

    private static void await(String what, java.util.concurrent.Callable<Boolean> condition) {
        Awaitility.await(what).atMost(PROPAGATION).pollInterval(Duration.ofMillis(50)).until(condition);
    }

    private static String tenant() {
        return "entry-" + UUID.randomUUID();
    }
}
