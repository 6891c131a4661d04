package dev.klave.drills;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingHttp;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Proxied requests sent without pause by a few clients while a fault is injected, each marked
 * with a number of its own in a header the cluster records ({@code X-Drill}), so that what the
 * clients were told can be compared with what the cluster received and what the audit holds.
 */
final class DrillLoad implements AutoCloseable {
    static final String PATH = "/clusters/prod-1/api/v1/namespaces/team-a/configmaps";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What one request got: its number, status, Status message (for refusals) and Audit-ID. */
    record Outcome(int number, int status, String message, Optional<String> auditId) {}

    private final TestingHttp http;
    private final String token;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger numbers = new AtomicInteger();
    private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final List<Thread> clients;

    DrillLoad(TestingHttp http, String token, int clients) {
        this.http = http;
        this.token = token;
        this.clients = java.util.stream.IntStream.range(0, clients)
                .mapToObj(i -> Thread.ofVirtual().name("drill-client-" + i).start(this::run))
                .toList();
    }

    private void run() {
        while (running.get()) {
            int number = numbers.incrementAndGet();
            try {
                HttpResponse<String> response = http.get(PATH, "Authorization", "Bearer " + token, "X-Drill",
                        String.valueOf(number));
                String message = "";
                if (response.statusCode() >= 400) {
                    JsonNode body = JSON.readTree(response.body());
                    message = body.path("message").asText("");
                }
                outcomes.add(new Outcome(number, response.statusCode(), message,
                        response.headers().firstValue("Audit-ID")));
                // A steady load, not a flood: the drill is about what each request gets.
                Thread.sleep(10); // the load's pace (above)
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                outcomes.add(new Outcome(number, -1, e.toString(), Optional.empty()));
            }
        }
    }

    /** Whether the last {@code count} answers were all 200 (used to wait for recovery). */
    boolean lastAnswered200(int count) {
        List<Outcome> all = List.copyOf(outcomes);
        return all.size() >= count && all.subList(all.size() - count, all.size()).stream()
                .allMatch(outcome -> outcome.status() == 200);
    }

    List<Outcome> outcomes() {
        return List.copyOf(outcomes);
    }

    /** The numbers of the drill's requests that reached the cluster. */
    static Set<Integer> reached(ClusterSimulator cluster) {
        return cluster.requests().stream()
                .map(request -> request.header("X-Drill"))
                .flatMap(Optional::stream)
                .map(Integer::valueOf)
                .collect(Collectors.toSet());
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread client : clients) {
            client.join();
        }
    }
}
