package dev.klave.installation;

import static java.util.Objects.requireNonNull;

/** How much a notice asks of administrators: {@code warning} (act on it) or {@code info}. */
public enum NoticeLevel {
    WARNING("warning"),
    INFO("info");

    private final String code;

    NoticeLevel(String code) {
        this.code = requireNonNull(code, "code is null");
    }

    /** The value the API sends. */
    public String code() {
        return code;
    }

    /** The value whose text is {@code code}; anything else is refused. */
    public static NoticeLevel parse(String code) {
        for (NoticeLevel value : values()) {
            if (value.code.equals(code)) {
                return value;
            }
        }
        throw new IllegalArgumentException("unknown notice level: " + code);
    }
}
