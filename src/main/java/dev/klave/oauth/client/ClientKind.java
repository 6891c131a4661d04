package dev.klave.oauth.client;

/** How a client became known (spec 3 §4 "Clients"). */
public enum ClientKind {
    /** Registered through {@code POST /oauth/register} (RFC 7591); deleted after 30 days unused. */
    REGISTERED("registered"),
    /** Identified by the https URL of its published metadata document. */
    METADATA_DOCUMENT("metadata_document");

    private final String stored;

    ClientKind(String stored) {
        this.stored = stored;
    }

    /** The value kept in the database. */
    public String stored() {
        return stored;
    }

    public static ClientKind ofStored(String value) {
        for (ClientKind kind : values()) {
            if (kind.stored.equals(value)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown client kind: " + value);
    }
}
