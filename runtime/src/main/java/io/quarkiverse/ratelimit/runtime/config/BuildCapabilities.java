package io.quarkiverse.ratelimit.runtime.config;

/** What the application was built with that the limits depend on, recorded at build time (a synthetic bean). */
public final class BuildCapabilities {

    private final boolean tokensAvailable;

    /** @param tokensAvailable whether the application can authenticate JSON Web Tokens (smallrye-jwt or oidc) */
    public BuildCapabilities(boolean tokensAvailable) {
        this.tokensAvailable = tokensAvailable;
    }

    /** Whether the application can authenticate JSON Web Tokens, for the {@code jwt-claim} tenant source. */
    public boolean tokensAvailable() {
        return tokensAvailable;
    }
}
