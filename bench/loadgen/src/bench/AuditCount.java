package bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * Counts Klave's audit rows for one path straight from its database (SQLite file or PostgreSQL),
 * so bench/run can check that every request the cluster received has its row.
 */
final class AuditCount {
    private AuditCount() {}

    static long count(Args args) throws Exception {
        try (Connection connection = DriverManager.getConnection(args.text("jdbc"));
                PreparedStatement query = connection.prepareStatement("SELECT count(*) FROM audit WHERE path = ?")) {
            query.setString(1, args.text("path", "/api/v1/namespaces/default/pods"));
            try (ResultSet result = query.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }
}
