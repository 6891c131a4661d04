package dev.klave.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/** Times are stored as milliseconds since the epoch in both dialects. */
final class Times {
    private Times() {}

    static Long toMillis(Optional<Instant> instant) {
        return instant.map(Instant::toEpochMilli).orElse(null);
    }

    static Optional<Instant> instant(ResultSet row, String column) throws SQLException {
        long millis = row.getLong(column);
        return row.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(millis));
    }
}
