package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Tenant ids are untrusted: ids crafted to break the key layout or its hash tag, or to be huge, must neither fail
 * nor share a counter with another tenant.
 */
@QuarkusTest
@WithTestResource(value = LocalRedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class HostileTenantTest {

    @Test
    void hostileTenantIdsEachGetTheirOwnBoundedKey() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String huge = run + "x".repeat(4096);
        List<String> tenants = List.of(
                run + "a}:{b", // would end the hash tag early and move the rest out of it
                run + "a", run + "b", // what the above would collide with
                run + "a%7D%3A%7Bb", // the escaped form of the first, must not collide with it
                run + ":*\\", run + "*", run + "\\",
                run + "{}", run + "}", run + "{",
                huge, huge + "y", // differ only after the length bound
                run + " spaced  out ");

        for (String tenant : tenants) {
            for (int i = 0; i < 5; i++) {
                given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(200);
            }
        }
        for (String tenant : tenants) {
            given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(429);
        }

        try (RespConnection redis = LocalRedisResource.connect()) {
            @SuppressWarnings("unchecked")
            List<String> keys = (List<String>) redis.command("KEYS", "rate-limit:*SearchResource.search*");
            List<String> ours = keys.stream().filter(key -> key.contains(run)).toList();
            assertThat(ours).as("one key per tenant, except the two huge ones, which are hashed").hasSize(
                    tenants.size() - 2);
            assertThat(keys).allSatisfy(key -> {
                assertThat(key.length()).isLessThanOrEqualTo(150);
                assertThat(key.indexOf('}')).as("exactly one hash tag: " + key).isEqualTo(key.lastIndexOf('}'));
                assertThat(key.indexOf('{')).isEqualTo(key.lastIndexOf('{'));
            });
            long hashed = keys.stream().filter(key -> key.contains("{~h:")).count();
            assertThat(hashed).isGreaterThanOrEqualTo(2);
        }
    }
}
