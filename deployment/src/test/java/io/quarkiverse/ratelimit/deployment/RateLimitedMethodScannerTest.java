package io.quarkiverse.ratelimit.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import org.jboss.jandex.Index;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.TenantSource;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

/**
 * The scanner on its own, for what an application build in this module cannot show: this module's tests have
 * quarkus-smallrye-jwt on their class path, so the JWT-claim source is refused here by telling the scanner that the
 * application cannot authenticate tokens.
 */
class RateLimitedMethodScannerTest {

    @Path("/orgs/{org}")
    public static class Orgs {

        @GET
        @RateLimited(limit = 5, window = "1m", tenant = TenantSource.JWT_CLAIM)
        public String byClaim() {
            return "";
        }

        @POST
        @Path("labels")
        @RateLimited(limit = 5, window = "1m", perEndpoint = true, perParameter = "org")
        public String keyed(@PathParam("org") String org) {
            return org;
        }
    }

    @Test
    void theJwtClaimSourceNeedsAnApplicationThatAuthenticatesTokens() {
        List<String> problems = new ArrayList<>();
        List<RateLimitedMethodBuildItem> methods = scan(false, problems);

        assertThat(problems).containsExactly("@RateLimited on " + Orgs.class.getName() + "#byClaim() takes its tenant"
                + " from a JWT claim, but neither quarkus-smallrye-jwt nor quarkus-oidc is in the application");
        assertThat(methods).hasSize(1);
        assertThat(scan(true, new ArrayList<>())).hasSize(2);
    }

    @Test
    void endpointAndParameterPositionsAreRecordedAtBuildTime() {
        RateLimitedMethodBuildItem keyed = scan(true, new ArrayList<>()).stream()
                .filter(method -> method.method().name().equals("keyed")).findFirst().orElseThrow();
        LimitDefinition limit = keyed.limits().getLimits().get(0);

        assertThat(limit.getEndpoint()).isEqualTo("POST:/orgs/{org}/labels");
        assertThat(limit.getKeyParameters()).containsExactly(0);
        assertThat(keyed.limits().getParameters()).containsEntry("org", 0);
    }

    private static List<RateLimitedMethodBuildItem> scan(boolean tokensAvailable, List<String> problems) {
        try {
            Index index = Index.of(Orgs.class, RateLimited.class, RateLimited.List.class);
            return new RateLimitedMethodScanner(index, problems::add, tokensAvailable)
                    .scan();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
