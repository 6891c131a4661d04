package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.AuditCursor;
import dev.klave.audit.AuditFilter;
import dev.klave.audit.AuditIds;
import dev.klave.audit.AuditPruning;
import dev.klave.audit.AuditRow;
import dev.klave.audit.AuditStore;
import dev.klave.audit.Channel;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/** {@link AuditStore} in SQL: each batch is one transaction, on PostgreSQL one statement. */
public final class JdbiAuditStore implements AuditStore, AuditPruning {
    // SQLite's; PostgreSQL's batch is PostgresAuditBatch.
    private static final String INSERT = "INSERT INTO audit (id, at, subject_id, subject_login, credential_id, "
            + "cluster_id, namespace, verb, resource, name, path, client_ip, status, error, completed_at, channel, "
            + "tool, session, dry_run) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    // A request ends once (the proxy's Ending); should a second end come, the first stays.
    private static final String COMPLETE = "INSERT INTO audit_completion (id, status, error, completed_at, refused, "
            + "feed_seq) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING";
    /**
     * The feed's numbers for a batch of completions (V23), taken in the writer's own transaction
     * — SQLite's one writer, so they are the commit order — with one statement per batch instead of
     * a trigger's two per row (measured: bench/RESULTS.md "The audit at scale").
     */
    private static final String FEED_NUMBERS = "UPDATE feed_counter SET value = value + ? WHERE id = 1 "
            + "RETURNING value";
    /**
     * A row as read: its end comes from audit_completion (migration V8) or, for rows completed
     * before V8 or written complete, from the row itself.
     */
    private static final String SELECT = "SELECT a.id, a.at, a.subject_id, a.subject_login, a.credential_id, "
            + "a.cluster_id, a.namespace, a.verb, CASE WHEN c.refused = 1 THEN NULL ELSE a.resource END AS resource, "
            + "a.name, a.path, a.client_ip, COALESCE(c.status, a.status) AS status, COALESCE(c.error, a.error) AS error, "
            + "COALESCE(c.completed_at, a.completed_at) AS completed_at, a.channel, a.tool, a.session, a.dry_run "
            + "FROM audit a LEFT JOIN audit_completion c ON c.id = a.id";
    // Not COALESCE(c.refused, 0) = 0: PostgreSQL's planner guesses that keeps one row in 200 and
    // plans listings as parallel scans (13.7 ms on 725,000 rows against 0.3 ms); this form it
    // estimates right.
    /** Not refused by the credential check after its row was written: a page reads its completion anyway. */
    private static final String NOT_REFUSED = "(c.refused IS NULL OR c.refused = 0)";
    /**
     * The same for a count, which reads no completion otherwise: a probe of V26's partial index,
     * which holds only the refused few, instead of every counted row's completion (issue 32: the
     * bounded total of {@code verb=delete} at ten million rows, 55 → 24 ms p95 on PostgreSQL).
     */
    private static final String NOT_REFUSED_COUNTED =
            "NOT EXISTS (SELECT 1 FROM audit_completion r WHERE r.id = a.id AND r.refused = 1)";

    private final Database database;

    public JdbiAuditStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    /**
     * On PostgreSQL one statement ({@link PostgresAuditBatch}). On SQLite a transaction, which here
     * begins IMMEDIATE: it holds the only write lock from its start, so nothing can commit between
     * the access generation read inside it and its commit. The read is made there, on the same connection:
     * no second handle, no read transaction of its own (at low load one batch per request,
     * bench/RESULTS.md).
     */
    @Override
    public long write(List<AuditRow> rows, List<AuditRow.Completion> completions) {
        if (database.dialect() == Dialect.POSTGRES) {
            return PostgresAuditBatch.write(database, rows, completions);
        }
        return database.inTransaction(() -> database.withHandle(handle -> {
            try {
                if (!rows.isEmpty()) {
                    insertAll(handle, rows);
                }
                if (!completions.isEmpty()) {
                    completeAll(handle, completions);
                }
                return JdbiAccessChanges.read(database, handle);
            } catch (SQLException e) {
                throw new UnableToExecuteStatementException(e, null);
            }
        }));
    }

    // SQLite's batch writes are the audit writer's hot path (one row and one completion per
    // proxied request): plain JDBC, since Jdbi's per-argument binding cost more than the SQL did
    // (JFR, bench/RESULTS.md), and statements kept prepared, since compiling them again per batch
    // cost SQLite a sixth of the writer's CPU (KeptStatements).
    private void insertAll(Handle handle, List<AuditRow> rows) throws SQLException {
        PreparedStatement insert = database.kept(handle, INSERT);
        for (AuditRow row : rows) {
            AuditRow.Actor actor = row.actor();
            AuditRow.Request request = row.request();
            Optional<AuditRow.Outcome> outcome = row.outcome();
            insert.setBytes(1, AuditKeys.bytes(row.id()));
            insert.setLong(2, row.at().toEpochMilli());
            text(insert, 3, actor.subjectId());
            text(insert, 4, actor.subjectLogin());
            text(insert, 5, actor.credentialId());
            insert.setString(6, row.cluster());
            text(insert, 7, request.namespace());
            insert.setString(8, request.verb());
            text(insert, 9, request.resource());
            text(insert, 10, request.name());
            insert.setString(11, request.path());
            text(insert, 12, actor.clientIp());
            if (outcome.isPresent()) {
                insert.setInt(13, outcome.get().status());
                insert.setLong(15, outcome.get().completedAt().toEpochMilli());
            } else {
                insert.setNull(13, Types.INTEGER);
                insert.setNull(15, Types.BIGINT);
            }
            text(insert, 14, outcome.flatMap(AuditRow.Outcome::error));
            insert.setString(16, request.channel().kind().wire());
            text(insert, 17, request.channel().tool());
            text(insert, 18, request.channel().session());
            insert.setInt(19, request.dryRun() == AuditRow.DryRun.ALL ? 1 : 0);
            insert.addBatch();
        }
        insert.executeBatch();
    }

    private void completeAll(Handle handle, List<AuditRow.Completion> completions) throws SQLException {
        long last;
        PreparedStatement numbers = database.kept(handle, FEED_NUMBERS);
        numbers.setInt(1, completions.size());
        try (ResultSet counter = numbers.executeQuery()) {
            counter.next();
            last = counter.getLong(1);
        }
        long next = last - completions.size() + 1;
        PreparedStatement insert = database.kept(handle, COMPLETE);
        for (AuditRow.Completion completion : completions) {
            insert.setBytes(1, AuditKeys.bytes(completion.id()));
            insert.setInt(2, completion.status());
            text(insert, 3, completion.error());
            insert.setLong(4, completion.at().toEpochMilli());
            insert.setInt(5, completion.kind() == AuditRow.Completion.Kind.REFUSED ? 1 : 0);
            insert.setLong(6, next++);
            insert.addBatch();
        }
        insert.executeBatch();
    }

    private static void text(PreparedStatement statement, int index, Optional<String> value) throws SQLException {
        if (value.isPresent()) {
            statement.setString(index, value.get());
        } else {
            statement.setNull(index, Types.VARCHAR);
        }
    }

    @Override
    public int parallelBatches() {
        return database.dialect() == Dialect.SQLITE ? 1 : 2;
    }

    @Override
    public List<AuditRow> find(AuditFilter filter, Optional<AuditCursor> after, int offset, int limit) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        String sql = listingSql(filter, after, offset, limit, parameters);
        return database.withHandle(handle -> handle.createQuery(sql)
                .bindMap(parameters)
                .map(JdbiAuditStore::map)
                .list());
    }

    /** The SELECT of a listing page, which {@link #find} runs and {@link #listingPlan} explains. */
    private String listingSql(AuditFilter filter, Optional<AuditCursor> after, int offset, int limit,
            Map<String, Object> parameters) {
        StringBuilder sql = new StringBuilder(SELECT + " WHERE 1 = 1").append(where(filter, parameters, NOT_REFUSED));
        after.ifPresent(cursor -> {
            // The keyset: strictly after the last row shown, in the listing's order (at, id), which
            // every index of V21 holds. A row value, which both databases match to an index range;
            // the same test written as two comparisons joined by OR was only a filter (a deep page
            // read every row above it: bench/RESULTS.md "The audit at scale").
            sql.append(" AND (a.at, a.id) < (:cursor_at, :cursor_id)");
            parameters.put("cursor_at", cursor.at().toEpochMilli());
            parameters.put("cursor_id", key(cursor.id()));
        });
        sql.append(" ORDER BY a.at DESC, a.id DESC LIMIT :limit");
        parameters.put("limit", limit);
        if (offset > 0) {
            sql.append(" OFFSET :offset");
            parameters.put("offset", offset);
        }
        return sql.toString();
    }

    /**
     * The plan the database makes for a listing page with this filter (issue 32: every filter has
     * an index). SQLite's {@code EXPLAIN QUERY PLAN} lines; PostgreSQL's JSON plan, made with
     * sequential scans and sorts priced out of reach, so that a {@code Seq Scan} or {@code Sort}
     * in it means no index can serve the shape whatever the table's size.
     */
    public List<String> listingPlan(AuditFilter filter, Optional<AuditCursor> after) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        return plan(listingSql(filter, after, 0, 51, parameters), parameters);
    }

    /** The plan of a listing's bounded total with this filter, as {@link #listingPlan} gives it. */
    public List<String> countPlan(AuditFilter filter) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        String sql = countSql(filter, parameters, 10_001);
        return plan(sql, parameters);
    }

    private List<String> plan(String sql, Map<String, Object> parameters) {
        if (database.dialect() == Dialect.SQLITE) {
            return database.withHandle(handle -> handle.createQuery("EXPLAIN QUERY PLAN " + sql).bindMap(parameters)
                    .map((row, context) -> row.getString("detail")).list());
        }
        return database.inTransaction(() -> database.withHandle(handle -> {
            handle.execute("SET LOCAL enable_seqscan = off");
            handle.execute("SET LOCAL enable_sort = off");
            return handle.createQuery("EXPLAIN (FORMAT JSON) " + sql).bindMap(parameters).mapTo(String.class).list();
        }));
    }

    @Override
    public List<Bucket> activity(AuditFilter filter, java.time.Duration bucket) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("bucket", bucket.toMillis());
        String status = "COALESCE(c.status, a.status)";
        String sql = "SELECT (a.at / :bucket) * :bucket AS start, COUNT(*) AS requests, "
                + "SUM(CASE WHEN " + status + " >= 400 AND " + status + " < 500 THEN 1 ELSE 0 END) AS refused, "
                + "SUM(CASE WHEN " + status + " >= 500 THEN 1 ELSE 0 END) AS failed "
                + "FROM audit a LEFT JOIN audit_completion c ON c.id = a.id WHERE 1 = 1"
                + where(filter, parameters, filter.status().isPresent() ? NOT_REFUSED : NOT_REFUSED_COUNTED)
                // By position: PostgreSQL tells two bound placeholders apart, so the expression again would differ.
                + " GROUP BY 1 ORDER BY 1";
        return database.withHandle(handle -> handle.createQuery(sql).bindMap(parameters)
                .map((row, context) -> new Bucket(java.time.Instant.ofEpochMilli(row.getLong("start")),
                        row.getLong("requests"), row.getLong("refused"), row.getLong("failed"))).list());
    }

    @Override
    public long count(AuditFilter filter, long atMost) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        String sql = countSql(filter, parameters, atMost);
        return database.withHandle(handle -> handle.createQuery(sql).bindMap(parameters).mapTo(Long.class).one());
    }

    private static String countSql(AuditFilter filter, Map<String, Object> parameters, long atMost) {
        // A status filter reads each row's completion anyway: then the same join tells refusals.
        String matching = "SELECT 1 FROM audit a LEFT JOIN audit_completion c ON c.id = a.id WHERE 1 = 1"
                + where(filter, parameters, filter.status().isPresent() ? NOT_REFUSED : NOT_REFUSED_COUNTED);
        if (atMost == Long.MAX_VALUE) {
            return "SELECT COUNT(*) FROM (" + matching + ") matching";
        }
        // Stops reading at atMost rows: the bounded total of a listing.
        parameters.put("at_most", atMost);
        return "SELECT COUNT(*) FROM (" + matching + " LIMIT :at_most) matching";
    }

    /** The conditions of {@code filter}, one listing and its count share. */
    private static String where(AuditFilter filter, Map<String, Object> parameters, String notRefused) {
        StringBuilder sql = new StringBuilder();
        condition(sql, parameters, "subject_id", filter.subject());
        condition(sql, parameters, "cluster_id", filter.cluster());
        condition(sql, parameters, "namespace", filter.namespace());
        condition(sql, parameters, "verb", filter.verb());
        filter.resource().ifPresent(resource -> {
            sql.append(" AND a.resource = :resource AND " + notRefused);
            parameters.put("resource", resource);
        });
        condition(sql, parameters, "credential_id", filter.credential());
        // The kind is one of a closed set, written as a literal so that the partial index on tool
        // rows (migration V15), whose condition names 'tool', serves the filter; a bound value would
        // not match it.
        filter.channel().ifPresent(kind -> sql.append(" AND a.channel = '").append(kind.wire()).append('\''));
        condition(sql, parameters, "tool", filter.tool());
        condition(sql, parameters, "session", filter.session());
        filter.status().ifPresent(status -> {
            sql.append(" AND COALESCE(c.status, a.status) = :status");
            parameters.put("status", status);
        });
        filter.from().ifPresent(from -> {
            sql.append(" AND a.at >= :from");
            parameters.put("from", from.toEpochMilli());
        });
        filter.to().ifPresent(to -> {
            sql.append(" AND a.at <= :to");
            parameters.put("to", to.toEpochMilli());
        });
        // Literals, not bound values: the partial index of dry runs (V30) names dry_run = 1.
        filter.dryRun().ifPresent(dryRun -> sql.append(dryRun ? " AND a.dry_run = 1" : " AND a.dry_run = 0"));
        if (!filter.includeDiscovery()) {
            sql.append(" AND a.resource IS NOT NULL AND " + notRefused);
        }
        return sql.toString();
    }

    private static void condition(StringBuilder sql, Map<String, Object> parameters, String column,
            Optional<String> value) {
        value.ifPresent(text -> {
            sql.append(" AND a.").append(column).append(" = :").append(column);
            parameters.put(column, text);
        });
    }

    @Override
    public int deleteBefore(Instant before, int limit) {
        return database.inTransaction(() -> database.withHandle(handle -> {
            // The oldest first, by the time index; then each row's completion and the row, by key.
            // The keys as the driver read them (uuid or bytes), bound back as they are.
            List<Object> ids = handle.createQuery("SELECT id FROM audit WHERE at < :before ORDER BY at, id "
                    + "LIMIT :limit").bind("before", before.toEpochMilli()).bind("limit", limit)
                    .map((row, context) -> row.getObject("id")).list();
            if (ids.isEmpty()) {
                return 0;
            }
            handle.createUpdate("DELETE FROM audit_completion WHERE id IN (<ids>)").bindList("ids", ids).execute();
            return handle.createUpdate("DELETE FROM audit WHERE id IN (<ids>)").bindList("ids", ids).execute();
        }));
    }

    /** The rows {@code ids} name, in no order (the audit feed's). */
    public List<AuditRow> findByIds(List<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return database.withHandle(handle -> handle.createQuery(SELECT + " WHERE a.id IN (<ids>)")
                .bindList("ids", ids.stream().map(this::key).toList()).map(JdbiAuditStore::map).list());
    }

    @Override
    public Optional<AuditRow> findById(String id) {
        if (!AuditIds.wellFormed(id)) {
            // No row was ever written under it, and neither key column (V37) could hold it.
            return Optional.empty();
        }
        return database.withHandle(handle -> handle.createQuery(SELECT + " WHERE a.id = :id")
                .bind("id", key(id))
                .map(JdbiAuditStore::map)
                .findOne());
    }

    private Object key(String id) {
        return AuditKeys.bound(database.dialect(), id);
    }

    /** A row read back is rebuilt whole, not {@link AuditRow#opened opened}: it may have ended since. */
    private static AuditRow map(ResultSet row, StatementContext context) throws SQLException {
        String id = AuditKeys.text(row.getObject("id"));
        AuditRow.Actor actor = new AuditRow.Actor(Optional.ofNullable(row.getString("subject_id")),
                Optional.ofNullable(row.getString("subject_login")),
                Optional.ofNullable(row.getString("credential_id")), Optional.ofNullable(row.getString("client_ip")));
        AuditRow.Request request = new AuditRow.Request(row.getString("verb"),
                Optional.ofNullable(row.getString("namespace")), Optional.ofNullable(row.getString("resource")),
                Optional.ofNullable(row.getString("name")), row.getString("path"),
                Channel.stored(row.getString("channel"), Optional.ofNullable(row.getString("tool")),
                        Optional.ofNullable(row.getString("session"))),
                row.getInt("dry_run") == 1 ? AuditRow.DryRun.ALL : AuditRow.DryRun.NO);
        return new AuditRow(id, Times.instant(row, "at").orElseThrow(), actor, row.getString("cluster_id"), request,
                outcome(id, row));
    }

    /**
     * A row's end: from its completion (V8), or from the row itself when it was completed before V8
     * or written complete. Every writer has put status and time together, and a completion requires
     * both; a row with one and not the other fails loudly rather than reading as not ended.
     */
    private static Optional<AuditRow.Outcome> outcome(String id, ResultSet row) throws SQLException {
        int status = row.getInt("status");
        boolean ended = !row.wasNull();
        Optional<Instant> completedAt = Times.instant(row, "completed_at");
        if (ended != completedAt.isPresent()) {
            throw new IllegalStateException("audit row " + id + " has a status or an end time without the other");
        }
        Optional<String> error = Optional.ofNullable(row.getString("error"));
        return completedAt.map(at -> new AuditRow.Outcome(status, error, at));
    }
}
