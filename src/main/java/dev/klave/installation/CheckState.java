package dev.klave.installation;

import static java.util.Objects.requireNonNull;

/**
 * The state of one health check of the installation: it passes ({@code ok}), fails
 * ({@code failing}) or does not apply ({@code off}).
 */
public enum CheckState {
    OK("ok"),
    FAILING("failing"),
    OFF("off");

    private final String code;

    CheckState(String code) {
        this.code = requireNonNull(code, "code is null");
    }

    /** The value the API sends. */
    public String code() {
        return code;
    }

    /** The value whose text is {@code code}; anything else is refused. */
    public static CheckState parse(String code) {
        for (CheckState value : values()) {
            if (value.code.equals(code)) {
                return value;
            }
        }
        throw new IllegalArgumentException("unknown health-check state: " + code);
    }
}
