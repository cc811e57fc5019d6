package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.ext.Provider;

/**
 * Stamps every outgoing REST Client request with the wall-clock time it leaves this instance ({@code X-Sent-At}, epoch
 * ms), so that the carrier stub can tell a request sent after an outage was announced from one that was only slow on
 * its way there (the instances and the stub share one machine, so one clock).
 */
@Provider
public class SentAtHeader implements ClientRequestFilter {

    static final String NAME = "X-Sent-At";

    @Override
    public void filter(ClientRequestContext request) {
        request.getHeaders().putSingle(NAME, Long.toString(System.currentTimeMillis()));
    }
}
