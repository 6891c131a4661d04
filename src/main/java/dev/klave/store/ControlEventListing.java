package dev.klave.store;

import dev.klave.audit.EventFilter;
import dev.klave.audit.EventType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The SELECT of {@code GET /api/control-events} (issue 32): newest first — by time, then by the
 * insertion sequence among events of one millisecond — each filter walking an index of V25 in that
 * order, a time range being a range of each. A filter that is several conditions joined by OR —
 * a type prefix ({@code user.}: every known type it starts), a person as actor or as target — is
 * one arm per condition, each walking its own index for at most {@code offset + limit} rows, and
 * the arms merged: an OR over two indexes would otherwise make each dialect collect every match
 * and sort them, which costs what the busiest person's or type's history costs.
 */
final class ControlEventListing {
    static final String COLUMNS = "id, at, type, actor_id, actor_login, target_id, target_login, via, reason, "
            + "client_ip, details";

    private ControlEventListing() {}

    static ListingSql.Statement of(EventFilter filter, Optional<String> afterId, int offset, int limit) {
        if (limit < 1 || offset < 0) {
            throw new IllegalArgumentException("limit must be positive and offset not negative");
        }
        Map<String, Object> parameters = new LinkedHashMap<>();
        List<String> common = new ArrayList<>();
        afterId.ifPresent(id -> {
            parameters.put("after_id", id);
            // An id that names no event gives nothing after it (the comparison with NULL is never true).
            common.add("(at, seq) < (SELECT at, seq FROM control_events WHERE id = :after_id)");
        });
        filter.from().ifPresent(from -> {
            parameters.put("from", from.toEpochMilli());
            common.add("at >= :from");
        });
        filter.to().ifPresent(to -> {
            parameters.put("to", to.toEpochMilli());
            common.add("at < :to");
        });
        List<String> types = filter.type().map(ControlEventListing::types).orElse(List.of());
        for (int i = 0; i < types.size(); i++) {
            parameters.put("type_" + i, types.get(i));
        }
        List<List<String>> arms = new ArrayList<>();
        for (int t = 0; t < Math.max(1, types.size()); t++) {
            List<String> byType = new ArrayList<>(common);
            if (!types.isEmpty()) {
                byType.add("type = :type_" + t);
            }
            if (filter.subjectId().isPresent()) {
                parameters.put("subject", filter.subjectId().get());
                List<String> asActor = new ArrayList<>(byType);
                asActor.add("actor_id = :subject");
                List<String> asTarget = new ArrayList<>(byType);
                // Once only when the person is both (their own password change, say).
                asTarget.add("target_id = :subject AND (actor_id IS NULL OR actor_id <> :subject)");
                arms.add(asActor);
                arms.add(asTarget);
            } else {
                arms.add(byType);
            }
        }
        parameters.put("limit", limit);
        parameters.put("offset", offset);
        if (arms.size() == 1) {
            return new ListingSql.Statement("SELECT " + COLUMNS + " FROM control_events" + where(arms.getFirst())
                    + " ORDER BY at DESC, seq DESC LIMIT :limit OFFSET :offset", parameters);
        }
        parameters.put("arm_limit", offset + limit);
        StringBuilder sql = new StringBuilder();
        for (int a = 0; a < arms.size(); a++) {
            List<String> arm = arms.get(a);
            sql.append(sql.isEmpty() ? "" : " UNION ALL ").append("SELECT * FROM (SELECT seq, ").append(COLUMNS)
                    .append(" FROM control_events").append(where(arm))
                    .append(" ORDER BY at DESC, seq DESC LIMIT :arm_limit) AS arm").append(a);
        }
        return new ListingSql.Statement(sql + " ORDER BY at DESC, seq DESC LIMIT :limit OFFSET :offset", parameters);
    }

    /**
     * The stored types {@code type} names: itself, or for a prefix ending in a dot every known type
     * it starts (events are written only with {@link EventType}'s codes); a prefix of none names
     * itself, which matches nothing.
     */
    private static List<String> types(String type) {
        if (!type.endsWith(".")) {
            return List.of(type);
        }
        List<String> known = java.util.Arrays.stream(EventType.values()).map(EventType::code)
                .filter(code -> code.startsWith(type)).toList();
        return known.isEmpty() ? List.of(type) : known;
    }

    private static String where(List<String> conditions) {
        return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }
}
