package io.quarkiverse.ratelimit.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A client of the demo that sends its batches within what its tenant has left, reading the usage endpoint
 * ({@code quarkus.rate-limit.usage.enabled}) first instead of meeting 429s. Shown on Multi-tenancy.
 */
public class UsageAwareSender {

    private final HttpClient http = HttpClient.newHttpClient();
    private final URI service;
    private final String tenant;

    public UsageAwareSender(URI service, String tenant) {
        this.service = service;
        this.tenant = tenant;
    }

    // tag::backoff[]
    /** How long to wait before sending {@code calls} calls that count under the limit {@code name}: zero if they fit. */
    public Duration waitBefore(String name, int calls) throws IOException, InterruptedException {
        HttpResponse<String> usage = http.send(HttpRequest.newBuilder(service.resolve("/rate-limit/usage"))
                .header("X-Tenant-Id", tenant).build(), HttpResponse.BodyHandlers.ofString());
        if (usage.statusCode() == 429) {                          // read too often: the usage endpoint's own limit
            return Duration.ofSeconds(Long.parseLong(usage.headers().firstValue("Retry-After").orElse("1")));
        }
        for (Object each : new JsonArray(usage.body())) {
            JsonObject limit = (JsonObject) each;
            if (limit.getString("name").equals(name)) {
                boolean fits = !limit.getBoolean("inDebt") && limit.getLong("remaining") >= calls;
                return fits ? Duration.ZERO : Duration.ofSeconds(limit.getLong("resetSeconds"));
            }
        }
        return Duration.ZERO;                                     // no per-tenant limit of that name
    }
    // end::backoff[]
}
