package io.quarkiverse.ratelimit.deployment.tenant;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

import java.util.UUID;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.jwt.build.Jwt;

/**
 * With quarkus-smallrye-jwt, a claim of the verified bearer token names the tenant: two users of one organisation share
 * its counter, another organisation has its own, and a call without a token (or without the claim) is unauthorized.
 */
class JwtClaimTenantTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Organisations.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.source", "jwt-claim")
            .overrideConfigKey("quarkus.rate-limit.tenant.claim", "org")
            // no keys configured: in tests, smallrye-jwt generates a key pair, which Jwt...sign() uses
            .overrideConfigKey("mp.jwt.verify.issuer", "https://issuer.test");

    @Path("/organisations")
    public static class Organisations {

        @GET
        @RateLimited(limit = 2, window = "1h")
        public String call() {
            return "ok";
        }
    }

    @Test
    void theClaimNamesTheTenant() {
        String org = "org-" + UUID.randomUUID();
        given().auth().oauth2(token("alice", org)).get("/organisations").then().statusCode(200);
        given().auth().oauth2(token("bob", org)).get("/organisations").then().statusCode(200);
        given().auth().oauth2(token("carol", org)).get("/organisations").then()
                .statusCode(429);
        given().auth().oauth2(token("alice", "org-" + UUID.randomUUID())).get("/organisations").then()
                .statusCode(200);
    }

    @Test
    void noTokenOrNoClaimIsUnauthorized() {
        given().get("/organisations").then().statusCode(401).body(containsString("claim 'org'"));
        given().auth().oauth2(Jwt.issuer("https://issuer.test").upn("dave").sign())
                .get("/organisations").then().statusCode(401);
    }

    private static String token(String user, String org) {
        return Jwt.issuer("https://issuer.test").upn(user).claim("org", org).sign();
    }
}
