package dev.klave.bench;

import dev.klave.audit.AuditCursor;
import dev.klave.audit.AuditFilter;
import dev.klave.audit.AuditIds;
import dev.klave.audit.AuditRow;
import dev.klave.audit.Channel;
import dev.klave.audit.FeedPosition;
import dev.klave.config.DatabaseUrl;
import dev.klave.store.Database;
import dev.klave.store.JdbiAuditFeed;
import dev.klave.store.JdbiAuditStore;
import dev.klave.testing.TestingPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Supplier;

/**
 * The audit listing at scale (issue 32, bench/scale): builds {@code rows} audit rows spread as an
 * installation a few months old spreads them (2,000 subjects, 50 clusters, 20,000 credentials, a
 * busy credential, 30 days, a few per cent refused or deleted), on SQLite and PostgreSQL, then times
 * each listing the API offers — the first page, filters, a deep page by cursor, the bounded total,
 * the export's batch and the feed — p50 and p95 over repeated runs. Loopback and local files only.
 *
 * <p>{@code java … dev.klave.bench.AuditScale <rows> [sqlite|postgres|both]}
 */
public final class AuditScale {
    private static final int BATCH = 5_000;
    private static final int RUNS = 25;
    private static final Instant END = Instant.parse("2026-11-25T00:00:00Z");

    private AuditScale() {}

    public static void main(String[] args) throws Exception {
        int rows = Integer.parseInt(args.length > 0 ? args[0] : "1000000");
        String which = args.length > 1 ? args[1] : "both";
        if (!which.equals("postgres")) {
            Path directory = Files.createTempDirectory("klave-scale-");
            try (Database database = Database.open(new DatabaseUrl.Sqlite(directory.resolve("klave.db")))) {
                run("sqlite", database, rows);
            }
        }
        if (!which.equals("sqlite")) {
            DatabaseUrl.Postgres url = TestingPostgres.freshDatabase();
            try (Database database = Database.open(url)) {
                run("postgres", database, rows);
            } finally {
                TestingPostgres.drop(url);
            }
        }
    }

    private static void run(String name, Database database, int rows) {
        JdbiAuditStore store = new JdbiAuditStore(database);
        long loading = System.nanoTime();
        load(store, rows);
        System.out.printf("%s: %,d rows loaded in %.0f s%n", name, rows, (System.nanoTime() - loading) / 1e9);
        database.withHandle(handle -> handle.execute("ANALYZE"));
        Map<String, Supplier<Object>> listings = new LinkedHashMap<>();
        listings.put("no filter, first page", () -> store.find(filter(Map.of()), Optional.empty(), 0, 51));
        listings.put("busiest credential", () -> store.find(filter(Map.of("credential", "cred-0")), Optional.empty(),
                0, 51));
        listings.put("credential with no rows", () -> store.find(filter(Map.of("credential", "cred-none")),
                Optional.empty(), 0, 51));
        listings.put("verb=delete", () -> store.find(filter(Map.of("verb", "delete")), Optional.empty(), 0, 51));
        listings.put("namespace=payments", () -> store.find(filter(Map.of("namespace", "payments")),
                Optional.empty(), 0, 51));
        listings.put("subject (one of 2,000)", () -> store.find(filter(Map.of("subject", "s-17")), Optional.empty(),
                0, 51));
        listings.put("cluster (one of 50)", () -> store.find(filter(Map.of("cluster", "c-7")), Optional.empty(),
                0, 51));
        listings.put("status=403", () -> store.find(filter(Map.of("status", "403")), Optional.empty(), 0, 51));
        AuditCursor deep = deepCursor(store, rows);
        listings.put("deep page by cursor (half-way)", () -> store.find(filter(Map.of()), Optional.of(deep), 0, 51));
        listings.put("page 10,000 by page (OFFSET)", () -> store.find(filter(Map.of()), Optional.empty(), 499_950,
                51));
        listings.put("bounded total (10,001)", () -> store.count(filter(Map.of()), 10_001));
        listings.put("bounded total, verb=delete", () -> store.count(filter(Map.of("verb", "delete")), 10_001));
        listings.put("export batch (1,000 rows)", () -> store.find(filter(Map.of()), Optional.of(deep), 0, 1_000));
        JdbiAuditFeed feed = new JdbiAuditFeed(database);
        listings.put("feed, 500 entries from a position", () -> feed.after(new FeedPosition(0, rows / 2), 500));
        System.out.printf("| %s listing | p50 ms | p95 ms |%n|---|---:|---:|%n", name);
        for (Map.Entry<String, Supplier<Object>> listing : listings.entrySet()) {
            double[] times = new double[RUNS];
            for (int i = 0; i < RUNS + 3; i++) {
                long start = System.nanoTime();
                listing.getValue().get();
                if (i >= 3) {
                    times[i - 3] = (System.nanoTime() - start) / 1e6;
                }
            }
            Arrays.sort(times);
            System.out.printf("| %s | %.1f | %.1f |%n", listing.getKey(), times[RUNS / 2],
                    times[(int) Math.ceil(RUNS * 0.95) - 1]);
        }
    }

    private static AuditCursor deepCursor(JdbiAuditStore store, int rows) {
        List<AuditRow> page = store.find(filter(Map.of()), Optional.empty(), rows / 2, 1);
        return AuditCursor.after(page.getFirst());
    }

    private static AuditFilter filter(Map<String, String> given) {
        return new AuditFilter(Optional.ofNullable(given.get("subject")), Optional.ofNullable(given.get("cluster")),
                Optional.ofNullable(given.get("namespace")), Optional.ofNullable(given.get("verb")),
                Optional.empty(), Optional.ofNullable(given.get("credential")), Optional.empty(), Optional.empty(),
                false, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.ofNullable(given.get("status")).map(Integer::parseInt));
    }

    /** Rows over 30 days, oldest first; a third of the traffic from one busy CI credential. */
    private static void load(JdbiAuditStore store, int rows) {
        Random random = new Random(42);
        String[] verbs = {"get", "list", "watch", "get", "list", "get", "create", "update", "patch", "delete"};
        String[] namespaces = {"default", "payments", "shop", "search", "team-a", "team-b", "monitoring", "ci"};
        String[] resources = {"pods", "deployments", "configmaps", "secrets", "services", "pods/log", "events"};
        long span = 30L * 24 * 3600 * 1000;
        for (int done = 0; done < rows; done += BATCH) {
            List<AuditRow> batch = new ArrayList<>();
            List<AuditRow.Completion> completions = new ArrayList<>();
            int size = Math.min(BATCH, rows - done);
            for (int i = 0; i < size; i++) {
                int n = done + i;
                Instant at = END.minusMillis(span).plusMillis(span * n / rows);
                AuditIds ids = new AuditIds(Clock.fixed(at, ZoneOffset.UTC));
                boolean busy = random.nextInt(3) == 0;
                int subject = busy ? 0 : random.nextInt(2_000);
                String credential = busy ? "cred-0" : "cred-" + (1 + random.nextInt(20_000));
                String verb = verbs[random.nextInt(verbs.length)];
                int status = random.nextInt(100) < 3 ? 403 : 200;
                // As the proxy writes them: the row before the request leaves, its end in audit_completion.
                String id = ids.next();
                batch.add(new AuditRow(id, at, Optional.of("s-" + subject), Optional.of("user-" + subject),
                        Optional.of(credential), "c-" + random.nextInt(50),
                        Optional.of(namespaces[random.nextInt(namespaces.length)]), verb,
                        Optional.of(resources[random.nextInt(resources.length)]), Optional.of("x-" + n),
                        "/api/v1/namespaces/x/pods", Optional.of("10.0.0.1"), Optional.empty(), Optional.empty(),
                        Optional.empty(), Channel.PROXY));
                completions.add(new AuditRow.Completion(id, status, Optional.empty(), at.plusMillis(5)));
            }
            store.write(batch, List.of());
            store.write(List.of(), completions);
            if ((done / BATCH) % 40 == 0) {
                System.out.printf("  %,d rows%n", done + size);
            }
        }
    }
}
