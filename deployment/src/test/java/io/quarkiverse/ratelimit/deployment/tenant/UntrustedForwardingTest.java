package io.quarkiverse.ratelimit.deployment.tenant;

import static io.restassured.RestAssured.given;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * By default no forwarding header is believed: a client that sends {@code X-Forwarded-For} or {@code Forwarded} with
 * a fresh address on every call still counts in its own connection's bucket.
 */
class UntrustedForwardingTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(ClientAddressEndpoints.class))
            // even with Quarkus's own forwarding on, the limiter reads the connection's peer
            .overrideConfigKey("quarkus.http.proxy.proxy-address-forwarding", "true")
            .overrideConfigKey("quarkus.http.proxy.allow-x-forwarded", "true")
            .overrideConfigKey("quarkus.http.proxy.allow-forwarded", "true");

    @Test
    void xForwardedForCannotPickABucket() {
        given().header("X-Forwarded-For", "203.0.113.1").get("/address/spoofed").then().statusCode(200);
        given().header("X-Forwarded-For", "203.0.113.2").get("/address/spoofed").then().statusCode(429);
        given().get("/address/spoofed").then().statusCode(429);
    }

    @Test
    void forwardedCannotPickABucket() {
        given().header("Forwarded", "for=203.0.113.1").get("/address/forwarded").then().statusCode(200);
        given().header("Forwarded", "for=\"[2001:db8::1]:4711\"").get("/address/forwarded").then().statusCode(429);
    }
}
