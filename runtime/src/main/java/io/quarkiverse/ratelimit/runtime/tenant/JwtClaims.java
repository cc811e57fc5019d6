package io.quarkiverse.ratelimit.runtime.tenant;

import java.security.Principal;

import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Reads a claim of the caller's token. Its own class, so that the MicroProfile JWT API is loaded only by applications
 * that use the {@code jwt-claim} source (and therefore have quarkus-smallrye-jwt or quarkus-oidc).
 */
final class JwtClaims {

    private JwtClaims() {
    }

    /** The claim's value as text; {@code null} when the principal is no token or the claim is absent or empty. */
    static String claim(Principal principal, String name) {
        if (!(principal instanceof JsonWebToken token)) {
            return null;
        }
        Object value = token.getClaim(name);
        if (value instanceof jakarta.json.JsonString json) {
            value = json.getString();
        } else if (value instanceof jakarta.json.JsonNumber number) {
            value = number.toString();
        }
        return value == null || value.toString().isBlank() ? null : value.toString();
    }
}
