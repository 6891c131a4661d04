package bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * What Klave's session recorder kept of the bench's exec sessions, straight from its database:
 * recordings by state and their stored bytes. The upgrade phase's figure means "the relay with
 * its recorder" only if its sessions were recorded (truncated at the cap, since the bench's
 * streams are larger than it), not given up as unreadable.
 */
final class RecordingCount {
    private RecordingCount() {}

    static ObjectNode count(Args args) throws Exception {
        ObjectNode out = Api.JSON.createObjectNode();
        try (Connection connection = DriverManager.getConnection(args.text("jdbc"));
                PreparedStatement query = connection.prepareStatement(
                        "SELECT state, count(*), coalesce(sum(bytes), 0) FROM recordings GROUP BY state")) {
            try (ResultSet result = query.executeQuery()) {
                while (result.next()) {
                    out.put(result.getString(1), result.getLong(2));
                    out.put(result.getString(1) + "_mib", Math.round(result.getLong(3) / 1048576.0));
                }
            }
        }
        return out;
    }
}
