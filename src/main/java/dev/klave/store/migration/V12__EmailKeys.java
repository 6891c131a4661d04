package dev.klave.store.migration;

import dev.klave.account.EmailKey;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Fills {@code subjects.email_key} for accounts that existed before it (V11): the same key Klave
 * computes on every write ({@link EmailKey}), for both dialects, in Java because SQL's
 * {@code lower()} folds differently from the rule.
 */
public final class V12__EmailKeys extends BaseJavaMigration {
    @Override
    public void migrate(Context context) throws Exception {
        Map<String, String> keys = new LinkedHashMap<>();
        try (Statement select = context.getConnection().createStatement();
                ResultSet rows = select.executeQuery("SELECT id, email FROM subjects WHERE email IS NOT NULL")) {
            while (rows.next()) {
                keys.put(rows.getString("id"), EmailKey.of(rows.getString("email")).orElse(null));
            }
        }
        try (PreparedStatement update = context.getConnection().prepareStatement(
                "UPDATE subjects SET email_key = ? WHERE id = ?")) {
            for (Map.Entry<String, String> key : keys.entrySet()) {
                update.setString(1, key.getValue());
                update.setString(2, key.getKey());
                update.addBatch();
            }
            update.executeBatch();
        }
    }
}
