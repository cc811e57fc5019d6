package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.Scope;

/** The sign-up form: 5 sign-ups an hour per caller address, whoever the caller claims to be. */
// tag::resource[]
@Path("/signup")
public class SignupResource {

    @POST
    @RateLimited(name = "signup", limit = 5, window = "1h", scope = Scope.CLIENT_ADDRESS)
    public String signUp() {
        return "welcome";
    }
}
// end::resource[]
