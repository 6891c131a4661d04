package dev.klave.store;

import dev.klave.audit.AuditRow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * An audit batch on PostgreSQL as one statement in its own transaction: the rows and the ends go
 * in as arrays, and the statement answers with the access generation. One round trip per batch
 * instead of four (BEGIN with the rows, the ends, COMMIT, then the access generation read, which had to come
 * after the commit); Klave's CPU per request fell by an eighth to a sixth and PostgreSQL's by a
 * sixth to a fifth (bench/RESULTS.md, session 9).
 *
 * <p>The access generation is read {@code FOR SHARE}, and that lock is what makes reading it before the
 * commit safe. An access change moves the access generation with an UPDATE (V7's triggers), which waits for
 * the lock, so it commits after these rows. A change that already holds the access generation's row when
 * the read comes makes the read wait for its commit, and at READ COMMITTED a locking read then
 * returns the row as that commit left it (PostgreSQL manual, "SELECT ... The Locking Clause"). A
 * plain read would instead return the value of the statement's snapshot, and a change committed
 * while the batch waited would go unseen.
 *
 * <p>With two writers the lock is often held by both batches at once, which PostgreSQL records as
 * a MultiXact. Those are used up no faster than transaction ids, which every batch takes anyway,
 * so they bring no freezing vacuum that the inserts did not already bring.
 */
final class PostgresAuditBatch {
    // PostgreSQL promises no order between the main query and the inserts in WITH, and none is
    // needed: whenever the read comes, its lock holds from then until the commit. (It runs the
    // inserts after the main query; PostgresAuditStoreTest holds a batch between the two.)
    static final String SQL = "WITH new_rows AS (INSERT INTO audit (id, at, subject_id, subject_login, "
            + "credential_id, cluster_id, namespace, verb, resource, name, path, client_ip, status, error, "
            + "completed_at, channel, tool, session, dry_run) SELECT * FROM unnest(?::uuid[], ?::int8[], ?::text[], "
            + "?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], "
            + "?::int4[], ?::text[], ?::int8[], ?::text[], ?::text[], ?::text[], ?::int2[])), "
            // A request ends once (the proxy's Ending); should a second end come, the first stays.
            + "new_ends AS (INSERT INTO audit_completion (id, status, error, completed_at, refused) "
            + "SELECT * FROM unnest(?::uuid[], ?::int4[], ?::text[], ?::int8[], ?::int4[]) "
            + "ON CONFLICT (id) DO NOTHING) "
            + "SELECT generation FROM access_changes WHERE id = 1 FOR SHARE";

    private PostgresAuditBatch() {}

    static long write(Database database, List<AuditRow> rows, List<AuditRow.Completion> completions) {
        return database.withHandle(handle -> {
            try {
                Connection connection = handle.getConnection();
                PreparedStatement statement = database.kept(handle, SQL);
                bindRows(connection, statement, rows);
                bindEnds(connection, statement, completions);
                try (ResultSet row = statement.executeQuery()) {
                    if (!row.next()) {
                        throw new IllegalStateException("access_changes has no row (migration V7)");
                    }
                    return row.getLong(1);
                }
            } catch (SQLException e) {
                throw new UnableToExecuteStatementException(e, null);
            }
        });
    }

    private static void bindRows(Connection connection, PreparedStatement statement, List<AuditRow> rows)
            throws SQLException {
        int n = rows.size();
        String[] id = new String[n], subjectId = new String[n], subjectLogin = new String[n];
        String[] credentialId = new String[n], clusterId = new String[n], namespace = new String[n];
        String[] verb = new String[n], resource = new String[n], name = new String[n], path = new String[n];
        String[] clientIp = new String[n], error = new String[n];
        String[] channel = new String[n], tool = new String[n], session = new String[n];
        Long[] at = new Long[n], completedAt = new Long[n];
        Integer[] status = new Integer[n];
        Short[] dryRun = new Short[n];
        for (int i = 0; i < n; i++) {
            AuditRow row = rows.get(i);
            AuditRow.Actor actor = row.actor();
            AuditRow.Request request = row.request();
            Optional<AuditRow.Outcome> outcome = row.outcome();
            dryRun[i] = (short) (request.dryRun() == AuditRow.DryRun.ALL ? 1 : 0);
            id[i] = row.id();
            at[i] = row.at().toEpochMilli();
            subjectId[i] = text(actor.subjectId());
            subjectLogin[i] = text(actor.subjectLogin());
            credentialId[i] = text(actor.credentialId());
            clusterId[i] = row.cluster();
            namespace[i] = text(request.namespace());
            verb[i] = request.verb();
            resource[i] = text(request.resource());
            name[i] = text(request.name());
            path[i] = request.path();
            clientIp[i] = text(actor.clientIp());
            status[i] = outcome.map(AuditRow.Outcome::status).orElse(null);
            error[i] = text(outcome.flatMap(AuditRow.Outcome::error));
            completedAt[i] = outcome.map(ended -> ended.completedAt().toEpochMilli()).orElse(null);
            channel[i] = request.channel().kind().wire();
            tool[i] = text(request.channel().tool());
            session[i] = text(request.channel().session());
        }
        // Parameters in the order of the columns in SQL.
        Object[][] columns = {id, at, subjectId, subjectLogin, credentialId, clusterId, namespace, verb, resource,
            name, path, clientIp, status, error, completedAt, channel, tool, session, dryRun};
        bind(connection, statement, 1, columns);
    }

    private static void bindEnds(Connection connection, PreparedStatement statement,
            List<AuditRow.Completion> completions) throws SQLException {
        int n = completions.size();
        String[] id = new String[n], error = new String[n];
        Integer[] status = new Integer[n], refused = new Integer[n];
        Long[] at = new Long[n];
        for (int i = 0; i < n; i++) {
            AuditRow.Completion completion = completions.get(i);
            id[i] = completion.id();
            status[i] = completion.status();
            error[i] = text(completion.error());
            at[i] = completion.at().toEpochMilli();
            refused[i] = completion.kind() == AuditRow.Completion.Kind.REFUSED ? 1 : 0;
        }
        bind(connection, statement, 20, new Object[][] {id, status, error, at, refused});
    }

    /** Binds each array from {@code first} on, typed by its Java element type as in SQL's casts. */
    private static void bind(Connection connection, PreparedStatement statement, int first, Object[][] arrays)
            throws SQLException {
        for (int i = 0; i < arrays.length; i++) {
            String type = switch (arrays[i]) {
                case String[] ignored -> "text";
                case Long[] ignored -> "int8";
                case Integer[] ignored -> "int4";
                case Short[] ignored -> "int2";
                default -> throw new IllegalArgumentException("no SQL type for " + arrays[i].getClass());
            };
            statement.setArray(first + i, connection.createArrayOf(type, arrays[i]));
        }
    }

    private static String text(Optional<String> value) {
        return value.orElse(null);
    }
}
