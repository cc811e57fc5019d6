import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * How long a refund made on one instance takes to end the refusal the other instance holds in its refusal cache.
 * Each round: a new tenant exhausts its e-mail quota on instance A (10 sends admitted, 3 refused: A now answers the
 * tenant from its cache), then one e-mail is refunded on instance B ({@code POST /emails/bounced}, answered once the
 * refund script ran in Redis, which publishes the invalidation). From B's answer, A is asked again and again until it
 * admits: the delay is from B's answer to A's admitting answer (so it includes one request to A, given beside it).
 *
 *   java InvalidationDelay.java <url of A> <url of B> [rounds]
 */
public class InvalidationDelay {

    public static void main(String[] args) throws Exception {
        URI a = URI.create(args[0]);
        URI b = URI.create(args[1]);
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<Long> delays = new ArrayList<>();
        List<Long> requests = new ArrayList<>();
        int askedAgain = 0;
        for (int round = 0; round < rounds + 20; round++) {
            String tenant = "delay-" + UUID.randomUUID();
            for (int i = 0; i < 10; i++) {
                expect(post(http, a, "/emails", tenant), 200);
            }
            for (int i = 0; i < 3; i++) {
                expect(post(http, a, "/emails", tenant), 429);
            }
            expect(post(http, b, "/emails/bounced", tenant), 204);
            long refunded = System.nanoTime();
            long sent;
            int status;
            int asks = 0;
            do {
                sent = System.nanoTime();
                status = post(http, a, "/emails", tenant);
                asks++;
                if (System.nanoTime() - refunded > Duration.ofSeconds(5).toNanos()) {
                    throw new IllegalStateException("instance A still refuses 5 s after the refund");
                }
            } while (status != 200);
            long admitted = System.nanoTime();
            if (round >= 20) { // the first rounds warm the JIT up
                delays.add(admitted - refunded);
                requests.add(admitted - sent);
                askedAgain += asks - 1;
            }
        }
        Collections.sort(delays);
        Collections.sort(requests);
        System.out.printf("%d rounds: refund on B -> admitted on A: p50 %s, p99 %s, max %s (one request to A: p50 %s);"
                + " A refused again %d times in all%n", rounds, ms(delays, 0.5), ms(delays, 0.99),
                ms(delays, 1.0), ms(requests, 0.5), askedAgain);
    }

    private static String ms(List<Long> sorted, double quantile) {
        int index = Math.min(sorted.size() - 1, (int) Math.ceil(quantile * sorted.size()) - 1);
        return String.format("%.2f ms", sorted.get(Math.max(0, index)) / 1e6);
    }

    private static int post(HttpClient http, URI base, String path, String tenant) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).header("X-Tenant-Id", tenant)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private static void expect(int status, int expected) {
        if (status != expected) {
            throw new IllegalStateException("expected " + expected + ", got " + status);
        }
    }
}
