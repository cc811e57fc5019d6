package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.restassured.path.json.JsonPath;

/**
 * A tenant's own usage on two packaged instances, through the usage endpoint ({@code GET /rate-limit/usage}) and the
 * docs' own-shaped one ({@code GET /my/limits}, over {@code RateLimiter.usage}): both instances answer the same
 * figures, since both read Redis; reading, however often, leaves every unit to the calls; a blocked tenant is refused;
 * and the endpoint's own limit holds across the fleet.
 */
class TenantUsageOnTwoInstancesIT {

    static final String SEARCH = "SearchResource.search";
    static final int READS = 20;

    @RegisterExtension
    static final Fleet fleet = Fleet.of(redis -> AppInstance.startTwo(redis,
            "quarkus.rate-limit.blocked-tenants=abuser", "quarkus.rate-limit.usage.limit=" + READS));

    @Test
    void bothInstancesAnswerTheSameUsageAndReadingItSpendsNothing() {
        String tenant = tenant();
        for (int i = 0; i < 3; i++) {
            search(i % 2, tenant, 200);
        }
        for (int instance = 0; instance < 2; instance++) {
            for (String path : new String[] { "/rate-limit/usage", "/my/limits" }) {
                JsonPath usage = usage(instance, path, tenant);
                assertThat(usage.getInt(field(SEARCH, "remaining"))).as("%s on instance %d", path, instance).isEqualTo(2);
                assertThat(usage.getInt(field(SEARCH, "limit"))).isEqualTo(5);
                assertThat(usage.getBoolean(field(SEARCH, "inDebt"))).isFalse();
            }
        }
        search(0, tenant, 200);
        search(1, tenant, 200);
        search(0, tenant, 429);
        assertThat(usage(1, "/rate-limit/usage", tenant).getInt(field(SEARCH, "remaining"))).isZero();
    }

    @Test
    void aBlockedTenantIsRefusedAndReadingIsLimitedAcrossTheFleet() {
        given().header("X-Tenant-Id", "abuser").get(fleet.instance(1).uri().resolve("/rate-limit/usage")).then()
                .statusCode(403);
        given().get(fleet.instance(0).uri().resolve("/rate-limit/usage")).then().statusCode(400); // no tenant

        Map<Integer, Integer> byStatus = ConcurrentRequests.send(READS + 10,
                i -> fleet.instance(i % 2).uri().resolve("/rate-limit/usage"), tenant());
        assertThat(byStatus).as("the usage endpoint's own limit, over both instances")
                .isEqualTo(Map.of(200, READS, 429, 10));
    }

    private static void search(int instance, String tenant, int status) {
        given().header("X-Tenant-Id", tenant).get(fleet.instance(instance).uri().resolve("/search")).then()
                .statusCode(status);
    }

    private static JsonPath usage(int instance, String path, String tenant) {
        return given().header("X-Tenant-Id", tenant).get(fleet.instance(instance).uri().resolve(path)).then()
                .statusCode(200).extract().jsonPath();
    }

    private static String field(String limit, String field) {
        return "find { it.name == '" + limit + "' }." + field;
    }

    private static String tenant() {
        return "usage-" + UUID.randomUUID();
    }
}
