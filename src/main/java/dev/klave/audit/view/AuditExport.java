package dev.klave.audit.view;

import dev.klave.audit.AuditCursor;
import dev.klave.audit.AuditFilter;
import dev.klave.audit.AuditRow;
import dev.klave.audit.AuditStore;
import dev.klave.http.Json;
import dev.klave.messages.Message;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The audit rows an export holds, as CSV (RFC 4180, one header line) or JSON lines (each line the
 * row exactly as {@code GET /api/audit} gives it), written as they are read (issue 32): a batch of
 * rows at a time after the last one written, so an export of any size holds one batch in memory,
 * its first bytes leave at once, and one cut short resumes after the last row received.
 */
public final class AuditExport {
    /** Rows read, and written, at a time. */
    static final int BATCH = 1_000;

    /** The two formats of {@code GET /api/audit/export} and {@code klave audit export}. */
    public enum Format {
        CSV("text/csv; charset=utf-8", "klave-audit.csv"),
        JSONL("application/x-ndjson; charset=utf-8", "klave-audit.jsonl");

        private final String contentType;
        private final String fileName;

        Format(String contentType, String fileName) {
            this.contentType = contentType;
            this.fileName = fileName;
        }

        public String contentType() {
            return contentType;
        }

        public String fileName() {
            return fileName;
        }

        /** {@code csv} or {@code jsonl}; 400 otherwise. */
        public static Format named(String name) {
            return switch (name) {
                case "csv" -> CSV;
                case "jsonl" -> JSONL;
                default -> throw Message.EXPORT_FORMAT_INVALID.refusal();
            };
        }
    }

    /** Where an export goes: an HTTP response, a file, standard output. */
    @FunctionalInterface
    public interface Sink {
        void write(byte[] bytes) throws IOException, InterruptedException;
    }

    /**
     * Writes every row {@code filter} keeps, newest first, after {@code after} when given: the
     * header (CSV), then one batch of lines per read. Returns how many rows were written.
     */
    public static long stream(AuditStore store, AuditFilter filter, Optional<AuditCursor> after, Format format,
            Sink sink) throws IOException, InterruptedException {
        if (format == Format.CSV) {
            sink.write((HEADER + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        long written = 0;
        Optional<AuditCursor> next = after;
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException("export stopped");
            }
            List<AuditRow> batch = store.find(filter, next, 0, BATCH);
            if (batch.isEmpty()) {
                return written;
            }
            List<AuditRoutes.AuditView> views = batch.stream().map(AuditRoutes::view).toList();
            sink.write(format == Format.CSV ? csvRows(views) : jsonLines(views));
            written += batch.size();
            if (batch.size() < BATCH) {
                return written;
            }
            next = Optional.of(AuditCursor.after(batch.getLast()));
        }
    }
    private static final String HEADER = "id,at,subject_id,subject,credential,cluster,namespace,verb,resource,name,"
            + "path,status,error,client_ip,completed_at,channel,tool,session,dry_run";

    private AuditExport() {}

    private static byte[] jsonLines(List<AuditRoutes.AuditView> rows) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (AuditRoutes.AuditView row : rows) {
            out.writeBytes(Json.write(row));
            out.write('\n');
        }
        return out.toByteArray();
    }

    private static byte[] csvRows(List<AuditRoutes.AuditView> rows) {
        StringBuilder text = new StringBuilder();
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
            cells.add(String.valueOf(row.dryRun()));
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
