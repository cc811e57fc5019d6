package io.quarkiverse.ratelimit.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.IntFunction;

/**
 * Fires many HTTP requests at once (all sent before any is awaited) and counts the answers by status. Connections
 * are not reused across requests, so each instance sees the burst as separate clients would send it.
 */
public final class ConcurrentRequests {

    private ConcurrentRequests() {
    }

    /** @param uriOfRequest the URI of the i-th request, so a burst can spread over several instances */
    public static Map<Integer, Integer> send(int count, IntFunction<URI> uriOfRequest, String tenant) {
        return byStatus(sendAll(requests(count, uriOfRequest, tenant)));
    }

    /**
     * {@link #send}, at most {@code inFlight} requests at a time: thousands a second over a fleet rather than thousands
     * of connections at once, which would starve many JVMs on a small machine until Redis's answers time out.
     */
    public static Map<Integer, Integer> send(int count, IntFunction<URI> uriOfRequest, String tenant, int inFlight) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .version(HttpClient.Version.HTTP_1_1).build();
        Semaphore permits = new Semaphore(inFlight);
        List<CompletableFuture<Integer>> statuses = new ArrayList<>(count);
        for (HttpRequest request : requests(count, uriOfRequest, tenant)) {
            permits.acquireUninterruptibly();
            statuses.add(client.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                    .thenApply(HttpResponse::statusCode).whenComplete((status, failure) -> permits.release()));
        }
        return byStatus(statuses.stream().map(CompletableFuture::join).toList());
    }

    private static List<HttpRequest> requests(int count, IntFunction<URI> uriOfRequest, String tenant) {
        List<HttpRequest> requests = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            requests.add(HttpRequest.newBuilder(uriOfRequest.apply(i))
                    .timeout(Duration.ofSeconds(30))
                    .header("X-Tenant-Id", tenant)
                    .GET()
                    .build());
        }
        return requests;
    }

    private static Map<Integer, Integer> byStatus(List<Integer> statuses) {
        Map<Integer, Integer> byStatus = new TreeMap<>();
        statuses.forEach(status -> byStatus.merge(status, 1, Integer::sum));
        return byStatus;
    }

    /** Sends every request before awaiting any; the status of each, in order. */
    public static List<Integer> sendAll(List<HttpRequest> requests) {
        ExecutorService executor = Executors.newFixedThreadPool(16);
        HttpClient client = HttpClient.newBuilder()
                .executor(executor)
                .connectTimeout(Duration.ofSeconds(10))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        try {
            List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>(requests.size());
            for (HttpRequest request : requests) {
                responses.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
            }
            List<Integer> statuses = new ArrayList<>(requests.size());
            for (CompletableFuture<HttpResponse<String>> response : responses) {
                statuses.add(response.join().statusCode());
            }
            return statuses;
        } finally {
            executor.shutdownNow();
        }
    }
}
