package dev.klave.logs;

/**
 * Names of the structured fields a log call may attach (SLF4J key-value pairs), which the JSON
 * format writes as fields of their own ({@link JsonLayout}); the text format keeps them in the
 * message, as before.
 */
public final class LogFields {
    /** The Audit-ID of the request a line is about: {@code LOG.atWarn().addKeyValue(AUDIT_ID, id)}. */
    public static final String AUDIT_ID = "audit_id";

    private LogFields() {}
}
