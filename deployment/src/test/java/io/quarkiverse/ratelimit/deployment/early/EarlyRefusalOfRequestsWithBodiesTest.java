package io.quarkiverse.ratelimit.deployment.early;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;

/**
 * A flood of requests with bodies (a login form tried again and again) refused before Quarkus REST routes them, and
 * so before their bodies are read: the connection then serves the next request, whose body arrives whole.
 */
class EarlyRefusalOfRequestsWithBodiesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Login.class, RestArrivals.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id");

    @Path("/login")
    public static class Login {

        @POST
        @Consumes("text/plain")
        @RateLimited(limit = 2, window = "1h", name = "login-attempts")
        public String login(String form) {
            return Integer.toString(form.length());
        }
    }

    @TestHTTPResource("/login")
    URL login;

    /** One client, so that its requests follow one another on the connections it keeps open. */
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void aFloodOfRequestsWithBodiesIsRefusedBeforeQuarkusRestAndTheNextRequestIsServedWhole() throws Exception {
        String tenant = "login-" + UUID.randomUUID();
        String form = "x".repeat(64 * 1024); // more than one read of the connection
        assertThat(post(tenant, form).statusCode()).isEqualTo(200);
        assertThat(post(tenant, form).statusCode()).isEqualTo(200);
        assertThat(post(tenant, form).statusCode()).as("the first refusal, through Quarkus REST").isEqualTo(429);

        int before = RestArrivals.count();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> refused = post(tenant, form);
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            assertThat(refused.headers().firstValue("RateLimit-Policy")).hasValueSatisfying(
                    policy -> assertThat(policy).contains("\"login-attempts\";q=2"));
        }
        assertThat(RestArrivals.count()).as("refused before Quarkus REST").isEqualTo(before);

        String anotherForm = "y".repeat(1000);
        HttpResponse<String> admitted = post("login-" + UUID.randomUUID(), anotherForm);
        assertThat(admitted.statusCode()).isEqualTo(200);
        assertThat(admitted.body()).as("its body alone, whole").isEqualTo(Integer.toString(anotherForm.length()));
    }

    private HttpResponse<String> post(String tenant, String form) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(login.toString()))
                .header("X-Tenant-Id", tenant)
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
