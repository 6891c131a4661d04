package dev.klave.agent;

import java.util.List;
import java.util.Optional;

/**
 * The MCP revisions the endpoint speaks. 2025-11-25 negotiates its version once, in
 * {@code initialize}; 2026-07-28 has no handshake and names its version in every request's
 * {@code _meta} and {@code MCP-Protocol-Version} header.
 */
public enum Revision {
    LEGACY("2025-11-25"),
    STATELESS("2026-07-28");

    /** Older dated revisions a 2025-11-25 client may name in its header after negotiating down. */
    private static final List<String> OLDER = List.of("2025-06-18", "2025-03-26");

    private final String version;

    Revision(String version) {
        this.version = version;
    }

    public String version() {
        return version;
    }

    /** Newest first, as {@code server/discover} lists them. */
    public static List<String> supported() {
        return List.of(STATELESS.version, LEGACY.version);
    }

    public static Optional<Revision> named(String version) {
        for (Revision revision : values()) {
            if (revision.version.equals(version)) {
                return Optional.of(revision);
            }
        }
        return Optional.empty();
    }

    /** Whether a {@code MCP-Protocol-Version} header of a request without {@code _meta} is acceptable. */
    static boolean legacyHeader(String version) {
        return version.equals(LEGACY.version) || OLDER.contains(version);
    }
}
