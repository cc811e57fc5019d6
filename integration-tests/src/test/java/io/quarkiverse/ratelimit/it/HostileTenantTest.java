package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

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

    /**
     * Tenant headers no client library would send, written on a raw connection: empty, bytes that are not UTF-8, a
     * bare carriage return inside the value, and 64 KB. Each is answered with a 2xx or a 4xx, never a 5xx.
     */
    @Test
    void malformedTenantHeadersGetA2xxOrA4xxNeverA5xx() throws Exception {
        byte[][] values = {
                new byte[0],
                { (byte) 0xFF, (byte) 0xFE, 'a', (byte) 0xC3 },
                { 'a', '\r', 'b' },
                "x".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII) };
        for (byte[] value : values) {
            int status = rawGet("/search", value);
            assertThat(status).as("a tenant header of %d bytes", value.length).isBetween(200, 499);
        }
    }

    /** The status line's code of one GET with the tenant header's value as raw bytes. */
    private static int rawGet(String path, byte[] tenant) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", RestAssured.port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nX-Tenant-Id: ")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(tenant);
            out.write("\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String statusLine = new BufferedReader(
                    new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1)).readLine();
            assertThat(statusLine).as("a status line").startsWith("HTTP/1.1 ");
            return Integer.parseInt(statusLine.substring(9, 12));
        }
    }
}
