package dev.klave.audit;

import dev.klave.http.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The audit rows an export holds, as CSV (RFC 4180, one header line) or JSON lines (each line the
 * row exactly as {@code GET /api/audit} gives it).
 */
final class AuditExport {
    private static final String HEADER = "id,at,subject_id,subject,credential,cluster,namespace,verb,resource,name,"
            + "path,status,error,client_ip,completed_at,channel,tool,session";

    private AuditExport() {}

    static byte[] jsonLines(List<AuditRoutes.AuditView> rows) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (AuditRoutes.AuditView row : rows) {
            out.writeBytes(Json.write(row));
            out.write('\n');
        }
        return out.toByteArray();
    }

    static byte[] csv(List<AuditRoutes.AuditView> rows) {
        StringBuilder text = new StringBuilder(HEADER).append("\r\n");
        for (AuditRoutes.AuditView row : rows) {
            List<String> cells = new ArrayList<>();
            cells.add(row.id());
            cells.add(row.at().toString());
            cells.add(text(row.subjectId()));
            cells.add(text(row.subject()));
            cells.add(text(row.credential()));
            cells.add(row.cluster());
            cells.add(text(row.namespace()));
            cells.add(row.verb());
            cells.add(text(row.resource()));
            cells.add(text(row.name()));
            cells.add(row.path());
            cells.add(row.status().map(String::valueOf).orElse(""));
            cells.add(text(row.error()));
            cells.add(text(row.clientIp()));
            cells.add(row.completedAt().map(Object::toString).orElse(""));
            cells.add(row.channel());
            cells.add(text(row.tool()));
            cells.add(text(row.session()));
            text.append(String.join(",", cells.stream().map(AuditExport::cell).toList())).append("\r\n");
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String text(Optional<String> value) {
        return value.orElse("");
    }

    /**
     * One field, quoted when it must be (RFC 4180 §2); a value a spreadsheet would run as a formula
     * ({@code =}, {@code +}, {@code -}, {@code @} first: paths and names come from requests) gets a
     * leading apostrophe.
     */
    static String cell(String value) {
        String safe = !value.isEmpty() && "=+-@\t\r".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
        if (safe.contains(",") || safe.contains("\"") || safe.contains("\n") || safe.contains("\r")) {
            return "\"" + safe.replace("\"", "\"\"") + "\"";
        }
        return safe;
    }
}
