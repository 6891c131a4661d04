package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.storage.Keyset;
import dev.klave.account.SubjectId;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * The SELECT of a listing read page by page: conditions joined with AND, a keyset instead of
 * OFFSET, the order and one LIMIT. The same text for both dialects; {@code ListingPlansConformance} reads
 * each shape's plan on both to check that an index serves the filter and the order.
 */
final class ListingSql {
    private final StringBuilder sql;
    private final Map<String, Object> parameters = new LinkedHashMap<>();
    private boolean where;

    ListingSql(String select) {
        this.sql = new StringBuilder(requireNonNull(select, "select is null"));
    }

    /** The statement ready to run, or to explain. */
    record Statement(String sql, Map<String, Object> parameters) {
        Statement {
            requireNonNull(sql, "sql is null");
            parameters = Map.copyOf(parameters);
        }

        <T> List<T> list(Handle handle, RowMapper<T> mapper) {
            return handle.createQuery(sql).bindMap(parameters).map(mapper).list();
        }
    }

    ListingSql where(String condition) {
        sql.append(where ? " AND " : " WHERE ").append(condition);
        where = true;
        return this;
    }

    ListingSql where(String condition, String name, Object value) {
        parameters.put(name, requireNonNull(value, "value is null"));
        return where(condition);
    }

    /**
     * Rows after {@code after} in the order {@code createdAt DESC, id}: the first condition is a range
     * the index {@code (…, created_at DESC, id)} starts from, the second drops the rows of the same
     * millisecond already shown.
     */
    ListingSql after(Optional<Keyset> after, String createdAt, String id) {
        after.ifPresent(key -> {
            parameters.put("after_at", key.createdAt().toEpochMilli());
            parameters.put("after_id", key.id());
            where(createdAt + " <= :after_at AND (" + createdAt + " < :after_at OR " + id + " > :after_id)");
        });
        return this;
    }

    Statement orderBy(String order, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        parameters.put("limit", limit);
        return new Statement(sql + " ORDER BY " + order + " LIMIT :limit", parameters);
    }

    /**
     * {@code count} of each subject among {@code subjects}: one grouped query per 500 of them (a
     * page is at most 500), so a listing never asks once per row.
     */
    static Map<SubjectId, Integer> countBySubject(Handle handle, String table, String condition,
            Collection<SubjectId> subjects, long now) {
        Map<SubjectId, Integer> counts = new java.util.HashMap<>();
        inBatches(subjects, ids -> handle.createQuery("SELECT subject_id, COUNT(*) AS n FROM " + table
                        + " WHERE subject_id IN (<ids>) AND " + condition + " GROUP BY subject_id")
                .bindList("ids", ids)
                .bind("now", now)
                .map((row, context) -> Map.entry(new SubjectId(row.getString("subject_id")), row.getInt("n")))
                .forEach(entry -> counts.put(entry.getKey(), entry.getValue())));
        return counts;
    }

    /**
     * Runs {@code query} with the ids of {@code subjects}, 500 at a time (a page holds at most 500,
     * and both dialects bound how many parameters one statement takes); nothing for none.
     */
    static void inBatches(Collection<SubjectId> subjects, java.util.function.Consumer<List<String>> query) {
        List<String> ids = subjects.stream().map(SubjectId::value).distinct().toList();
        for (int from = 0; from < ids.size(); from += 500) {
            query.accept(ids.subList(from, Math.min(ids.size(), from + 500)));
        }
    }

    /**
     * A LIKE pattern (with {@code ESCAPE '!'}: a backslash means something else to each dialect's
     * string literals, and to Jdbi's parser) for "contains {@code text}", in lower case.
     */
    static String containing(String text) {
        String escaped = text.toLowerCase(Locale.ROOT).replace("!", "!!").replace("%", "!%").replace("_", "!_");
        return "%" + escaped + "%";
    }
}
