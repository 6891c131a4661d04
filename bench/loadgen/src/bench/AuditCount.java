package bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * Counts Klave's audit rows for one path straight from its database (SQLite file or PostgreSQL),
 * so bench/run can check that every request the cluster received has its row: prints the number
 * of rows and, second, how many of them record a client that hung up (499) — at the end of a
 * wrk run some requests have their row but never reach the cluster.
 */
final class AuditCount {
    private AuditCount() {}

    static String count(Args args) throws Exception {
        try (Connection connection = DriverManager.getConnection(args.text("jdbc"));
                PreparedStatement query = connection.prepareStatement("SELECT count(*), "
                        + "coalesce(sum(CASE WHEN c.status = 499 THEN 1 ELSE 0 END), 0) "
                        + "FROM audit a LEFT JOIN audit_completion c ON c.id = a.id WHERE a.path = ?")) {
            query.setString(1, args.text("path", "/api/v1/namespaces/default/pods"));
            try (ResultSet result = query.executeQuery()) {
                result.next();
                return result.getLong(1) + " " + result.getLong(2);
            }
        }
    }
}
