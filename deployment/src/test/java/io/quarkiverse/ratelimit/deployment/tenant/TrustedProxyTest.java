package io.quarkiverse.ratelimit.deployment.tenant;

import static io.restassured.RestAssured.given;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * Behind a trusted proxy (the test client, 127.0.0.1, plays it) the client is the nearest untrusted address of the
 * forwarding chain: what a client writes at the left of the chain itself cannot move it to another bucket.
 */
class TrustedProxyTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(ClientAddressEndpoints.class))
            .overrideConfigKey("quarkus.rate-limit.client-address.trusted-proxies", "127.0.0.1/32, 10.0.0.0/8, ::1");

    @Test
    void eachForwardedClientHasItsOwnBucket() {
        given().header("X-Forwarded-For", "203.0.113.10").get("/address/forwarded").then().statusCode(200);
        given().header("X-Forwarded-For", "203.0.113.10").get("/address/forwarded").then().statusCode(429);
        given().header("X-Forwarded-For", "203.0.113.11").get("/address/forwarded").then().statusCode(200);
        given().header("Forwarded", "for=203.0.113.12;proto=https").get("/address/forwarded").then().statusCode(200);
        given().header("Forwarded", "for=203.0.113.12").get("/address/forwarded").then().statusCode(429);
    }

    @Test
    void whatTheClientPrependsToTheChainIsIgnored() {
        // the client sent "X-Forwarded-For: 198.51.100.7"; the trusted proxies 10.1.1.1 appended its real address
        given().header("X-Forwarded-For", "198.51.100.7, 203.0.113.20, 10.1.1.1").get("/address/chain").then()
                .statusCode(200);
        given().header("X-Forwarded-For", "198.51.100.8, 203.0.113.20, 10.1.1.1").get("/address/chain").then()
                .statusCode(429);
        given().header("X-Forwarded-For", "203.0.113.20").get("/address/chain").then().statusCode(429);
    }

    @Test
    void anIpv6ClientIsCountedPerSlash64HoweverSpelt() {
        given().header("Forwarded", "for=\"[2001:db8:0:1::1]:4711\"").get("/address/ipv6").then().statusCode(200);
        given().header("Forwarded", "for=\"[2001:db8:0:1:ffff::2]\"").get("/address/ipv6").then().statusCode(429);
        given().header("X-Forwarded-For", "2001:0db8:0000:0001:0000:0000:0000:0003").get("/address/ipv6").then()
                .statusCode(429);
        given().header("X-Forwarded-For", "2001:db8:0:2::1").get("/address/ipv6").then().statusCode(200);
    }

    @Test
    void anUnparseableChainFallsBackToThePeerNeverToAName() {
        given().header("X-Forwarded-For", "localhost").get("/address/garbage").then().statusCode(200);
        given().header("X-Forwarded-For", "not-an-address").get("/address/garbage").then().statusCode(429);
        given().get("/address/garbage").then().statusCode(429);
    }
}
