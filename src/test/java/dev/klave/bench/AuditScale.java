package dev.klave.bench;

import dev.klave.audit.AuditCursor;
import dev.klave.audit.AuditFilter;
import dev.klave.audit.AuditIds;
import dev.klave.audit.AuditRow;
import dev.klave.audit.EventFilter;
import dev.klave.audit.FeedPosition;
import dev.klave.config.DatabaseUrl;
import dev.klave.store.Database;
import dev.klave.store.JdbiAuditFeed;
import dev.klave.store.JdbiAuditStore;
import dev.klave.store.JdbiControlEventStore;
import dev.klave.testing.TestingAuditRows;
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
 * <p>{@code java … dev.klave.bench.AuditScale <rows> [sqlite|postgres|both] [--keep <dir>]}: with
 * {@code --keep} the SQLite file stays as {@code <dir>/klave.db} and the PostgreSQL database as
 * {@code klave_scale}, for {@code bench/run}'s {@code BENCH_SEED_SQLITE}/{@code BENCH_SEED_POSTGRES}
 * (the proxy and the export measured on that data). {@code … AuditScale time <database url>}
 * times the listings again on a kept database, loading nothing.
 */
public final class AuditScale {
    private static final int BATCH = 5_000;
    private static final int RUNS = 25;
    private static final Instant END = Instant.parse("2026-11-25T00:00:00Z");

    private AuditScale() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("time")) {
            DatabaseUrl url = DatabaseUrl.parse(args[1]);
            try (Database database = Database.open(url)) {
                time(url instanceof DatabaseUrl.Sqlite ? "sqlite" : "postgres", database);
            }
            return;
        }
        int rows = Integer.parseInt(args.length > 0 ? args[0] : "1000000");
        String which = args.length > 1 ? args[1] : "both";
        Optional<Path> keep = args.length > 3 && args[2].equals("--keep") ? Optional.of(Path.of(args[3]))
                : Optional.empty();
        if (!which.equals("postgres")) {
            Path directory = keep.orElse(Files.createTempDirectory("klave-scale-"));
            Files.createDirectories(directory);
            Files.deleteIfExists(directory.resolve("klave.db"));
            try (Database database = Database.open(new DatabaseUrl.Sqlite(directory.resolve("klave.db")))) {
                run("sqlite", database, rows);
            }
            keep.ifPresent(dir -> System.out.println("kept: sqlite:" + dir.resolve("klave.db")));
        }
        if (!which.equals("sqlite")) {
            DatabaseUrl.Postgres url = keep.isPresent() ? TestingPostgres.namedDatabase(KEPT) : TestingPostgres.freshDatabase();
            try (Database database = Database.open(url)) {
                run("postgres", database, rows);
            } finally {
                if (keep.isEmpty()) {
                    TestingPostgres.drop(url);
                }
            }
            keep.ifPresent(dir -> System.out.println("kept: " + TestingPostgres.urlOf(url)));
        }
    }

    /** The PostgreSQL database {@code --keep} leaves behind (replaced by the next run). */
    private static final String KEPT = "klave_scale";

    private static void run(String name, Database database, int rows) {
        long loading = System.nanoTime();
        load(new JdbiAuditStore(database), rows);
        int events = Math.max(1_000, rows / 25);
        loadEvents(database, events);
        System.out.printf("%s: %,d rows and %,d control events loaded in %.0f s%n", name, rows, events,
                (System.nanoTime() - loading) / 1e9);
        database.withHandle(handle -> handle.execute("ANALYZE"));
        disk(name, database, rows);
        time(name, database);
    }

    /**
     * What the audit takes on disk (issue 44's goal is per million rows): on PostgreSQL each
     * relation of the audit and its completions, indexes apart; on SQLite the file after a
     * checkpoint (control events included, as an installation's file holds them).
     */
    private static void disk(String name, Database database, int rows) {
        double perMillion = 1_000_000.0 / rows;
        if (name.equals("postgres")) {
            database.withHandle(handle -> {
                handle.execute("VACUUM ANALYZE audit");
                handle.execute("VACUUM ANALYZE audit_completion");
                long total = 0;
                for (Map<String, Object> relation : handle.createQuery("SELECT c.relname AS relation, "
                        + "pg_relation_size(c.oid) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                        + "WHERE n.nspname = current_schema() AND (c.relname LIKE 'audit%') AND c.relkind IN ('r', 'i') "
                        + "ORDER BY bytes DESC").mapToMap().list()) {
                    long bytes = ((Number) relation.get("bytes")).longValue();
                    total += bytes;
                    System.out.printf("  disk %-32s %,8.1f MB per million rows%n", relation.get("relation"),
                            bytes * perMillion / 1e6);
                }
                System.out.printf("postgres: the audit on disk %,.0f MB per million rows%n", total * perMillion / 1e6);
                return null;
            });
        } else {
            long bytes = database.withHandle(handle -> {
                handle.execute("PRAGMA wal_checkpoint(TRUNCATE)");
                return handle.createQuery("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")
                        .mapTo(Long.class).one();
            });
            System.out.printf("sqlite: the file %,.0f MB per million audit rows (control events included)%n",
                    bytes * perMillion / 1e6);
        }
    }

    private static void time(String name, Database database) {
        JdbiAuditStore store = new JdbiAuditStore(database);
        int rows = database.withHandle(handle -> handle.createQuery("SELECT count(*) FROM audit")
                .mapTo(Integer.class).one());
        int events = database.withHandle(handle -> handle.createQuery("SELECT count(*) FROM control_events")
                .mapTo(Integer.class).one());
        System.out.printf("%s: %,d audit rows, %,d control events%n", name, rows, events);
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
        listings.put("bounded total, status=403", () -> store.count(filter(Map.of("status", "403")), 10_001));
        listings.put("bounded total, busiest credential", () -> store.count(filter(Map.of("credential", "cred-0")),
                10_001));
        listings.put("export batch (1,000 rows)", () -> store.find(filter(Map.of()), Optional.of(deep), 0, 1_000));
        JdbiAuditFeed feed = new JdbiAuditFeed(database);
        listings.put("feed, 500 entries from a position", () -> feed.after(new FeedPosition(0, rows / 2), 500));
        JdbiControlEventStore controlEvents = new JdbiControlEventStore(database);
        listings.put("control events, first page", () -> controlEvents.newestFirst(EventFilter.ALL, 0, 51));
        listings.put("control events, type=login.failure", () -> controlEvents.newestFirst(
                events(Optional.of("login.failure"), Optional.empty()), 0, 51));
        listings.put("control events, type=user. (a prefix)", () -> controlEvents.newestFirst(
                events(Optional.of("user."), Optional.empty()), 0, 51));
        listings.put("control events, type=cluster.delete (rare)", () -> controlEvents.newestFirst(
                events(Optional.of("cluster.delete"), Optional.empty()), 0, 51));
        listings.put("control events, one person (actor or target)", () -> controlEvents.newestFirst(
                events(Optional.empty(), Optional.of("s-17")), 0, 51));
        listings.put("control events, the busiest administrator", () -> controlEvents.newestFirst(
                events(Optional.empty(), Optional.of("s-0")), 0, 51));
        String half = database.withHandle(handle -> handle.createQuery(
                "SELECT id FROM control_events ORDER BY seq LIMIT 1 OFFSET :n").bind("n", events / 2)
                .mapTo(String.class).one());
        listings.put("control events, half-way by cursor", () -> controlEvents.newestFirst(EventFilter.ALL,
                Optional.of(half), 0, 51));
        listings.put("control events, user. half-way by cursor", () -> controlEvents.newestFirst(
                events(Optional.of("user."), Optional.empty()), Optional.of(half), 0, 51));
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

    private static EventFilter events(Optional<String> type, Optional<String> subject) {
        return new EventFilter(type, subject, Optional.empty(), Optional.empty());
    }

    /**
     * Control events over the same 30 days, oldest first: mostly sign-ins, then credentials issued,
     * grants and users changed by a few administrators ({@code s-0} the busiest), a cluster deleted
     * now and then.
     */
    private static void loadEvents(Database database, int events) {
        Random random = new Random(7);
        String[] types = {"login.success", "login.success", "login.success", "login.success", "login.failure",
            "credential.issue", "credential.issue", "credential.revoke", "grant.create", "grant.revoke",
            "user.update", "user.create", "user.logout", "user.reset_link", "bot.create"};
        long span = 30L * 24 * 3600 * 1000;
        for (int done = 0; done < events; done += BATCH) {
            int size = Math.min(BATCH, events - done);
            int first = done;
            database.withHandle(handle -> handle.inTransaction(transaction -> {
                var batch = transaction.prepareBatch("INSERT INTO control_events (id, at, type, actor_id, actor_login, "
                        + "target_id, target_login, via, reason, client_ip, details) VALUES (:id, :at, :type, "
                        + ":actor_id, :actor_login, :target_id, :target_login, :via, NULL, '10.0.0.1', NULL)");
                for (int i = 0; i < size; i++) {
                    int n = first + i;
                    String type = random.nextInt(2_000) == 0 ? "cluster.delete" : types[random.nextInt(types.length)];
                    boolean signIn = type.startsWith("login.") || type.equals("user.logout");
                    int person = random.nextInt(2_000);
                    int admin = random.nextInt(4) == 0 ? 0 : random.nextInt(20);
                    batch.bind("id", "ev-" + n).bind("at", END.toEpochMilli() - span + span * n / events)
                            .bind("type", type)
                            .bind("actor_id", "s-" + (signIn ? person : admin))
                            .bind("actor_login", "user-" + (signIn ? person : admin))
                            .bind("target_id", signIn ? null : "s-" + person)
                            .bind("target_login", signIn ? null : "user-" + person)
                            .bind("via", signIn ? "password" : null)
                            .add();
                }
                return batch.execute();
            }));
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
                AuditRow.Actor actor = new AuditRow.Actor(Optional.of("s-" + subject), Optional.of("user-" + subject),
                        Optional.of(credential), Optional.of("10.0.0.1"));
                // Drawn in the order the rows always drew them, so that the seed gives the same rows.
                String cluster = "c-" + random.nextInt(50);
                String namespace = namespaces[random.nextInt(namespaces.length)];
                String resource = resources[random.nextInt(resources.length)];
                batch.add(AuditRow.opened(id, at, actor, cluster,
                        TestingAuditRows.request(verb, namespace, resource, "x-" + n, "/api/v1/namespaces/x/pods")));
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
