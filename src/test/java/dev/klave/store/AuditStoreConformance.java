package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.audit.AuditCursor;
import dev.klave.audit.AuditFilter;
import dev.klave.audit.AuditIds;
import dev.klave.audit.AuditRow;
import dev.klave.audit.AuditStore;
import dev.klave.audit.Channel;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingAuditRows;
import dev.klave.testing.TestingClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Audit rows as the proxy writes them: every field kept, completions, refusals hidden, batches atomic. */
abstract class AuditStoreConformance extends StoreConformance {
    private static final Instant AT = Instant.parse("2026-11-25T10:00:00Z");
    private static final AuditRow.Request PODS = TestingAuditRows.request("list", "team-a", "pods",
            "/api/v1/namespaces/team-a/pods");
    private static final AuditFilter ALL = new AuditFilter(Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), true);

    final AuditIds ids = new AuditIds(new TestingClock());
    JdbiAuditStore audit;
    JdbiAccessChanges accessChanges;

    @Override
    protected void setUp(Database database) {
        audit = new JdbiAuditStore(database);
        accessChanges = new JdbiAccessChanges(database);
    }

    AuditRow pending(String id) {
        return TestingAuditRows.opened(id, AT, "prod-1",
                TestingAuditRows.request("list", "team-a", "configmaps", "/api/v1/namespaces/team-a/configmaps"));
    }

    @Test
    void aPendingRowKeepsEveryFieldAndHasNoStatusYet() {
        String id = ids.next();
        audit.write(List.of(pending(id)), List.of());

        assertThat(audit.findById(id)).contains(pending(id));
    }

    /** What a row writes, column by column: the listing, the export and the feed read these. */
    @Test
    void aRowIsStoredColumnByColumn() {
        String ended = ids.next();
        String open = ids.next();
        AuditRow.Request scale = TestingAuditRows.asDryRun(TestingAuditRows.through(TestingAuditRows.request("patch",
                "team-a", "deployments/scale", "web", "/apis/apps/v1/namespaces/team-a/deployments/web/scale"),
                Channel.tool("scale", "ses_1")));
        audit.write(List.of(TestingAuditRows.opened(ended, AT, "prod-1", scale)
                .ended(new AuditRow.Outcome(422, Optional.of("no válido"), AT.plusMillis(4))), bare(open, "")),
                List.of());

        assertThat(columns(ended)).containsExactly("" + AT.toEpochMilli(), "s-1", "ana", "cred-1", "prod-1", "team-a",
                "patch", "deployments/scale", "web", "/apis/apps/v1/namespaces/team-a/deployments/web/scale",
                "10.0.0.7", "422", "no válido", "" + AT.plusMillis(4).toEpochMilli(), "tool", "scale", "ses_1", "1");
        assertThat(columns(open)).containsExactly("" + AT.toEpochMilli(), null, null, null, "", null, "get", null, null,
                "/api", null, null, null, null, "proxy", null, null, "0");
    }

    private List<String> columns(String id) {
        return database().withHandle(handle -> handle.createQuery("SELECT at, subject_id, subject_login, "
                + "credential_id, cluster_id, namespace, verb, resource, name, path, client_ip, status, error, "
                + "completed_at, channel, tool, session, dry_run FROM audit WHERE id = :id").bind("id", key(id))
                .map((row, context) -> {
                    List<String> values = new java.util.ArrayList<>();
                    for (int i = 1; i <= 18; i++) {
                        values.add(row.getString(i));
                    }
                    return values;
                }).one());
    }

    @Test
    void aRowWrittenWithoutAChannelIsAProxyRow() {
        String id = ids.next();
        audit.write(List.of(pending(id)), List.of());

        AuditRow row = audit.findById(id).orElseThrow();
        assertThat(row.request().channel()).isEqualTo(Channel.PROXY);
        assertThat(row.request().channel().tool()).isEmpty();
        assertThat(row.request().channel().session()).isEmpty();
    }

    /** Spec 3 "Tool rules" 3: a tool's request is a row carrying its tool and the agent session. */
    @Test
    void aToolRowKeepsItsToolAndSessionAndABotsToolRowHasNoSession() {
        String delegated = ids.next();
        String bot = ids.next();
        String session = "ses_" + delegated;
        audit.write(List.of(row(delegated, "prod-1", Channel.tool("list_resources", session)),
                row(bot, "prod-1", Channel.tool("get_logs"))), List.of());

        assertThat(audit.findById(delegated)).contains(row(delegated, "prod-1", Channel.tool("list_resources", session)));
        Channel read = audit.findById(delegated).orElseThrow().request().channel();
        assertThat(read.kind()).isEqualTo(Channel.Kind.TOOL);
        assertThat(read.tool()).contains("list_resources");
        assertThat(read.session()).contains(session);
        assertThat(audit.findById(bot).orElseThrow().request().channel()).isEqualTo(Channel.tool("get_logs"));
    }

    @Test
    void listingsFilterByChannelToolAndSession() {
        String cluster = "channels-" + ids.next();
        String session = "ses_" + ids.next();
        String proxied = ids.next();
        String listed = ids.next();
        String listedByBot = ids.next();
        String logs = ids.next();
        audit.write(List.of(row(proxied, cluster, Channel.PROXY), row(listed, cluster, Channel.tool("list_resources",
                session)), row(listedByBot, cluster, Channel.tool("list_resources")),
                row(logs, cluster, Channel.tool("get_logs", session))), List.of());

        assertThat(ids(cluster, Optional.of(Channel.Kind.PROXY), Optional.empty(), Optional.empty()))
                .containsExactly(proxied);
        assertThat(ids(cluster, Optional.of(Channel.Kind.TOOL), Optional.empty(), Optional.empty()))
                .containsExactlyInAnyOrder(listed, listedByBot, logs);
        assertThat(ids(cluster, Optional.empty(), Optional.of("list_resources"), Optional.empty()))
                .containsExactlyInAnyOrder(listed, listedByBot);
        assertThat(ids(cluster, Optional.empty(), Optional.empty(), Optional.of(session)))
                .containsExactlyInAnyOrder(listed, logs);
        assertThat(ids(cluster, Optional.of(Channel.Kind.TOOL), Optional.of("get_logs"), Optional.of(session)))
                .containsExactly(logs);
        assertThat(ids(cluster, Optional.of(Channel.Kind.PROXY), Optional.of("get_logs"), Optional.empty())).isEmpty();
        assertThat(audit.count(filter(cluster, Optional.of(Channel.Kind.TOOL), Optional.empty(), Optional.empty())))
                .isEqualTo(3);
    }

    @Test
    void aChannelOutsideTheClosedSetCannotBeStored() {
        String id = ids.next();
        audit.write(List.of(pending(id)), List.of());

        assertThatThrownBy(() -> database().write(handle -> handle.createUpdate(
                "UPDATE audit SET channel = 'ftp' WHERE id = :id").bind("id", key(id)).execute()))
                .isInstanceOf(RuntimeException.class);
        assertThat(audit.findById(id).orElseThrow().request().channel()).isEqualTo(Channel.PROXY);
    }

    /** A proxy row of {@code cluster} at {@code at}, answered {@code status}. */
    private AuditRow rowAt(String id, String cluster, Instant at, int status) {
        return TestingAuditRows.ended(id, at, cluster, PODS, status);
    }

    private static AuditFilter ofCluster(String cluster) {
        return new AuditFilter(Optional.empty(), Optional.of(cluster), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false);
    }

    @Test
    void pagingWithTheCursorGivesEveryRowOnceInOrderTiesOfOneMillisecondIncluded() {
        String cluster = "keyset-" + ids.next();
        List<AuditRow> written = new java.util.ArrayList<>();
        for (int i = 0; i < 11; i++) {
            // Three rows share each millisecond: the Audit-ID orders them.
            written.add(rowAt(ids.next(), cluster, AT.plusMillis(i / 3), 200));
        }
        audit.write(written, List.of());
        List<String> expected = written.stream().sorted(java.util.Comparator.comparing(AuditRow::at)
                .thenComparing(AuditRow::id).reversed()).map(AuditRow::id).toList();

        List<String> paged = new java.util.ArrayList<>();
        Optional<AuditCursor> after = Optional.empty();
        for (int pages = 0; pages < 10; pages++) {
            List<AuditRow> page = audit.find(ofCluster(cluster), after, 0, 4);
            page.forEach(row -> paged.add(row.id()));
            if (page.size() < 4) {
                break;
            }
            after = Optional.of(AuditCursor.decode(AuditCursor.after(page.getLast()).encode()));
        }

        assertThat(paged).containsExactlyElementsOf(expected);
        assertThat(audit.find(ofCluster(cluster), 4, 4)).extracting(AuditRow::id)
                .containsExactlyElementsOf(expected.subList(4, 8));
    }

    @Test
    void theStatusFilterReadsTheAnswerWhereverItIsKeptAndACountStopsWhereItIsBounded() {
        String cluster = "status-" + ids.next();
        String refusedLater = ids.next();
        String servedLater = ids.next();
        String writtenForbidden = ids.next();
        audit.write(List.of(pending(refusedLater), pending(servedLater), rowAt(writtenForbidden, cluster, AT, 403)),
                List.of());
        audit.write(List.of(), List.of(new AuditRow.Completion(refusedLater, 403, Optional.of("no"), AT),
                new AuditRow.Completion(servedLater, 200, Optional.empty(), AT)));
        AuditFilter forbidden = new AuditFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), true, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of(403));

        assertThat(audit.find(forbidden, 0, 1000)).extracting(AuditRow::id).contains(refusedLater, writtenForbidden)
                .doesNotContain(servedLater);
        assertThat(audit.count(ofCluster(cluster).withStatus(403), 10)).isEqualTo(1);
        for (int i = 0; i < 5; i++) {
            audit.write(List.of(rowAt(ids.next(), cluster, AT, 200)), List.of());
        }
        assertThat(audit.count(ofCluster(cluster), 3)).isEqualTo(3);
        assertThat(audit.count(ofCluster(cluster))).isEqualTo(6);
    }

    /** Issue 40: the chart's aggregate, per bucket, refusals (4xx) and failures (5xx) apart, empty buckets left out. */
    @Test
    void activityCountsRequestsPerBucketWithRefusalsAndFailuresApart() {
        String cluster = "activity-" + ids.next();
        String laterRefused = ids.next();
        audit.write(List.of(rowAt(ids.next(), cluster, AT, 200), rowAt(ids.next(), cluster, AT.plusSeconds(59), 403),
                rowAt(ids.next(), cluster, AT.plusSeconds(61), 503), pending(laterRefused),
                rowAt(ids.next(), cluster, AT.plusSeconds(3 * 60 + 1), 200),
                rowAt(ids.next(), "elsewhere-" + ids.next(), AT, 200)), List.of());
        audit.write(List.of(), List.of(new AuditRow.Completion(laterRefused, 404, Optional.of("no"), AT)));

        List<AuditStore.Bucket> perMinute = audit.activity(ofCluster(cluster), java.time.Duration.ofMinutes(1));

        assertThat(perMinute).containsExactly(
                new AuditStore.Bucket(AT, 2, 1, 0),
                new AuditStore.Bucket(AT.plusSeconds(60), 1, 0, 1),
                new AuditStore.Bucket(AT.plusSeconds(180), 1, 0, 0));
        assertThat(audit.activity(ofCluster(cluster), java.time.Duration.ofHours(1)))
                .containsExactly(new AuditStore.Bucket(AT, 4, 1, 1));
        // The status a completion brings counts, as the listing's status filter reads it.
        assertThat(audit.activity(ofCluster("prod-1"), java.time.Duration.ofDays(1)).stream()
                .mapToLong(AuditStore.Bucket::refused).sum()).isGreaterThanOrEqualTo(1);
    }

    /** Each filter the listing offers, alone, as the plan tests read them (issue 32). */
    @Test
    void aDryRunIsStoredAsOneAndTheFilterPicksDryRunsOrTheRest() {
        String dry = ids.next();
        String real = ids.next();
        AuditRow.Request create = TestingAuditRows.request("create", "team-a", "configmaps",
                "/api/v1/namespaces/team-a/configmaps");
        AuditRow dryRow = TestingAuditRows.ended(dry, AT, "dry-1", TestingAuditRows.asDryRun(create), 201);
        audit.write(List.of(dryRow, row(real, "dry-1", Channel.PROXY)), List.of());
        AuditFilter cluster = filter("dry-1", Optional.empty(), Optional.empty(), Optional.empty());

        List<AuditRow> dryRuns = audit.find(new AuditFilter(cluster.subject(), cluster.cluster(), cluster.namespace(),
                cluster.verb(), cluster.resource(), cluster.credential(), cluster.from(), cluster.to(), true,
                cluster.channel(), cluster.tool(), cluster.session(), Optional.empty(), Optional.of(true)),
                Optional.empty(), 0, 10);
        List<AuditRow> writes = audit.find(new AuditFilter(cluster.subject(), cluster.cluster(), cluster.namespace(),
                cluster.verb(), cluster.resource(), cluster.credential(), cluster.from(), cluster.to(), true,
                cluster.channel(), cluster.tool(), cluster.session(), Optional.empty(), Optional.of(false)),
                Optional.empty(), 0, 10);

        assertThat(dryRuns).extracting(AuditRow::id).containsExactly(dry);
        assertThat(dryRuns.get(0).request().dryRun()).isEqualTo(AuditRow.DryRun.ALL);
        assertThat(writes).extracting(AuditRow::id).containsExactly(real);
        assertThat(writes.get(0).request().dryRun()).isEqualTo(AuditRow.DryRun.NO);
    }

    static java.util.Map<String, AuditFilter> everyFilter() {
        java.util.Map<String, AuditFilter> filters = new java.util.LinkedHashMap<>();
        Optional<String> none = Optional.empty();
        Optional<Instant> never = Optional.empty();
        Optional<String> some = Optional.of("x");
        filters.put("none", new AuditFilter(none, none, none, none, none, none, never, never, false));
        filters.put("subject", new AuditFilter(some, none, none, none, none, none, never, never, false));
        filters.put("cluster", new AuditFilter(none, some, none, none, none, none, never, never, false));
        filters.put("namespace", new AuditFilter(none, none, some, none, none, none, never, never, false));
        filters.put("verb", new AuditFilter(none, none, none, some, none, none, never, never, false));
        filters.put("resource", new AuditFilter(none, none, none, none, some, none, never, never, false));
        filters.put("credential", new AuditFilter(none, none, none, none, none, some, never, never, false));
        filters.put("from-to", new AuditFilter(none, none, none, none, none, none, Optional.of(AT),
                Optional.of(AT.plusSeconds(60)), false));
        filters.put("tool", new AuditFilter(none, none, none, none, none, none, never, never, true, Optional.empty(),
                some, none));
        filters.put("session", new AuditFilter(none, none, none, none, none, none, never, never, true,
                Optional.empty(), none, some));
        filters.put("dry_runs", new AuditFilter(none, none, none, none, none, none, never, never, false,
                Optional.empty(), none, none, Optional.empty(), Optional.of(true)));
        return filters;
    }

    private AuditRow row(String id, String cluster, Channel channel) {
        return TestingAuditRows.ended(id, AT, cluster, TestingAuditRows.through(PODS, channel), 200);
    }

    private static AuditFilter filter(String cluster, Optional<Channel.Kind> channel, Optional<String> tool,
            Optional<String> session) {
        return new AuditFilter(Optional.empty(), Optional.of(cluster), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), true, channel, tool, session);
    }

    private List<String> ids(String cluster, Optional<Channel.Kind> channel, Optional<String> tool,
            Optional<String> session) {
        return audit.find(filter(cluster, channel, tool, session), 0, 50).stream().map(AuditRow::id).toList();
    }

    @Test
    void aRowWithoutOptionalFieldsComesBackWithout() {
        String id = ids.next();
        AuditRow refused = bare(id, "prod-1")
                .ended(new AuditRow.Outcome(401, Optional.of("credencial desconocida"), AT));
        audit.write(List.of(refused), List.of());

        assertThat(audit.findById(id)).contains(refused);
    }

    /** A request to discovery that named no one, as an unknown token's is before it is refused. */
    private static AuditRow bare(String id, String cluster) {
        return AuditRow.opened(id, AT, new AuditRow.Actor(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty()), cluster, new AuditRow.Request("get", Optional.empty(), Optional.empty(),
                Optional.empty(), "/api", Channel.PROXY, AuditRow.DryRun.NO));
    }

    @Test
    void aCompletionInALaterBatchRecordsStatusErrorAndTime() {
        String first = ids.next();
        String second = ids.next();
        audit.write(List.of(pending(first), pending(second)), List.of());

        audit.write(List.of(), List.of(new AuditRow.Completion(first, 200, Optional.empty(), AT.plusMillis(5)),
                new AuditRow.Completion(second, 499, Optional.of("cliente desconectado"), AT.plusMillis(9))));

        AuditRow done = audit.findById(first).orElseThrow();
        assertThat(done.outcome()).contains(new AuditRow.Outcome(200, Optional.empty(), AT.plusMillis(5)));
        assertThat(done.request().resource()).contains("configmaps");
        assertThat(audit.findById(second).orElseThrow().outcome().flatMap(AuditRow.Outcome::error))
                .contains("cliente desconectado");
    }

    @Test
    void aRefusalFoundAfterTheRowWasWrittenHidesItFromListings() {
        String id = ids.next();
        audit.write(List.of(pending(id)), List.of());

        audit.write(List.of(), List.of(new AuditRow.Completion(id, 401, Optional.of("credencial revocada"), AT,
                AuditRow.Completion.Kind.REFUSED)));

        AuditRow refused = audit.findById(id).orElseThrow();
        assertThat(refused.outcome().orElseThrow().status()).isEqualTo(401);
        assertThat(refused.request().resource()).isEmpty();
        assertThat(audit.find(ALL, 0, 50)).extracting(AuditRow::id).contains(id);
        assertThat(audit.find(new AuditFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false), 0, 50))
                .extracting(AuditRow::id).doesNotContain(id);
    }

    @Test
    void aSecondEndOfTheSameRequestKeepsTheFirstAndFailsNothing() {
        String id = ids.next();
        String other = ids.next();
        audit.write(List.of(pending(id), pending(other)), List.of());
        audit.write(List.of(), List.of(new AuditRow.Completion(id, 200, Optional.empty(), AT)));

        audit.write(List.of(), List.of(new AuditRow.Completion(id, 499, Optional.of("cliente desconectado"), AT),
                new AuditRow.Completion(other, 201, Optional.empty(), AT)));

        assertThat(audit.findById(id).orElseThrow().outcome()).contains(TestingAuditRows.answered(200, AT));
        assertThat(status(other)).contains(201);
    }

    @Test
    void aResourceFilterLeavesOutARequestRefusedAfterItsRowWasWritten() {
        String refused = ids.next();
        String served = ids.next();
        audit.write(List.of(pending(refused), pending(served)), List.of());
        audit.write(List.of(), List.of(new AuditRow.Completion(refused, 401, Optional.of("credencial revocada"), AT,
                AuditRow.Completion.Kind.REFUSED), new AuditRow.Completion(served, 200, Optional.empty(), AT)));

        AuditFilter configmaps = new AuditFilter(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.of("configmaps"), Optional.empty(), Optional.empty(), Optional.empty(), true);
        assertThat(audit.find(configmaps, 0, 50)).extracting(AuditRow::id).contains(served).doesNotContain(refused);
    }

    /** Rows completed in place before migration V8 moved completions to a table of their own. */
    @Test
    void aRowCompletedBeforeCompletionsHadATableOfTheirOwnReadsAsItWasWritten() {
        String served = ids.next();
        String refused = ids.next();
        audit.write(List.of(pending(served), pending(refused)), List.of());
        database().write(handle -> handle.createUpdate("UPDATE audit SET status = 200, completed_at = :at "
                + "WHERE id = :id").bind("at", AT.plusMillis(3).toEpochMilli()).bind("id", key(served)).execute());
        database().write(handle -> handle.createUpdate("UPDATE audit SET status = 401, "
                + "error = 'credencial revocada', completed_at = :at, resource = NULL WHERE id = :id")
                .bind("at", AT.toEpochMilli()).bind("id", key(refused)).execute());

        AuditRow done = audit.findById(served).orElseThrow();
        assertThat(done.outcome()).contains(TestingAuditRows.answered(200, AT.plusMillis(3)));
        assertThat(done.request().resource()).contains("configmaps");
        AuditRow gone = audit.findById(refused).orElseThrow();
        assertThat(gone.outcome()).contains(new AuditRow.Outcome(401, Optional.of("credencial revocada"), AT));
        assertThat(gone.request().resource()).isEmpty();
    }

    /**
     * Every writer has stored a status with its end time, and a completion requires both: a row
     * holding one alone is not read as a request still going on.
     */
    @Test
    void aStoredStatusWithoutItsEndTimeIsNotReadAsARequestGoingOn() {
        String id = ids.next();
        audit.write(List.of(pending(id)), List.of());
        database().write(handle -> handle.createUpdate("UPDATE audit SET status = 200 WHERE id = :id")
                .bind("id", key(id)).execute());
        try {
            assertThatThrownBy(() -> audit.findById(id)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("a status or an end time without the other");
        } finally {
            // The other tests list the whole table, this row included.
            database().write(handle -> handle.createUpdate("UPDATE audit SET status = NULL WHERE id = :id")
                    .bind("id", key(id)).execute());
        }
    }

    /** The writer's statements stay prepared per connection; a connection the pool replaces takes them along. */
    @Test
    void writesGoOnOnceThePoolHasReplacedItsConnections() {
        String previous = ids.next();
        audit.write(List.of(pending(previous)), List.of());

        for (int replaced = 0; replaced < 6; replaced++) {
            database().retireConnections();
            String next = ids.next();
            audit.write(List.of(pending(next)), List.of(new AuditRow.Completion(previous, 200, Optional.empty(), AT)));
            assertThat(status(previous)).contains(200);
            previous = next;
        }

        // The pool closes retired connections on a thread of its own, so the last one may still be
        // open; the five before it were let go with their statements.
        assertThat(database().connectionsWithKeptStatements()).isLessThanOrEqualTo(2);
    }

    @Test
    void aBatchWithOneBadRowWritesNothing() {
        String kept = ids.next();
        audit.write(List.of(pending(kept)), List.of());
        String fresh = ids.next();

        // The same id twice: the second insert breaks the primary key, so the whole batch rolls back.
        assertThatThrownBy(() -> audit.write(List.of(pending(fresh), pending(kept)),
                List.of(new AuditRow.Completion(kept, 200, Optional.empty(), AT))))
                .isInstanceOf(RuntimeException.class);

        assertThat(audit.findById(fresh)).isEmpty();
        assertThat(audit.findById(kept).orElseThrow().outcome()).isEmpty();
    }

    @Test
    void theValueReadAtCommitSeesAccessChangesCommittedBefore() {
        long before = accessChanges.generation();
        bumpAccessChanges();

        long read = audit.write(List.of(pending(ids.next())), List.of());

        assertThat(read).isEqualTo(before + 1);
    }

    /**
     * The proxy forwards a request only if the access generation read at its row's commit equals the one its
     * credential check saw: an access change (a revocation) must never commit between that read
     * and the commit unseen. A change still open when the batch comes makes it wait, and the
     * batch answers with the value that change left.
     */
    @Test
    void aBatchWaitsForAnAccessChangeInProgressAndAnswersWithItsValue() throws Exception {
        long before = accessChanges.generation();
        CountDownLatch changed = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread change = Thread.ofPlatform().start(() -> database().inTransaction(() -> {
            bumpAccessChanges();
            changed.countDown();
            awaitQuietly(release);
        }));
        // Released in any case: a change left open would hold SQLite's write lock for later tests.
        try {
            assertThat(changed.await(10, TimeUnit.SECONDS)).isTrue();

            String id = ids.next();
            CompletableFuture<Long> read = CompletableFuture.supplyAsync(
                    () -> audit.write(List.of(pending(id)), List.of()));
            assertHeld("the batch waiting for the change to commit", read);

            release.countDown();
            assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo(before + 1);
            assertThat(audit.findById(id)).isPresent();
        } finally {
            release.countDown();
            change.join(Duration.ofSeconds(10));
        }
    }

    /**
     * Asserts that {@code write} waits for another transaction. SQLite shows no sign of a writer
     * waiting for its lock, so its not finishing is watched for a moment; a dialect that shows its
     * waiting sessions waits for that sign instead.
     */
    void assertHeld(String what, CompletableFuture<?> write) {
        Eventually.stillTrueFor(what, Duration.ofMillis(300), () -> !write.isDone());
    }

    static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void bumpAccessChanges() {
        database().write(handle -> handle.execute("UPDATE access_changes SET generation = generation + 1 WHERE id = 1"));
    }


    private Optional<Integer> status(String id) {
        return audit.findById(id).orElseThrow().outcome().map(AuditRow.Outcome::status);
    }

    /** An Audit-ID as its column holds it since V37: uuid on PostgreSQL, 16 bytes on SQLite. */
    private Object key(String id) {
        return AuditKeys.bound(database().dialect(), id);
    }
}
