package dev.klave.account;

/** People sign in; bots only hold credentials (spec 1 §1.5, §2). */
public enum SubjectKind {
    PERSON("person"),
    BOT("bot");

    private final String code;

    SubjectKind(String code) {
        this.code = code;
    }

    /** The value stored and shown in the API ({@code kind: bot}). */
    public String code() {
        return code;
    }

    public static SubjectKind fromCode(String code) {
        for (SubjectKind kind : values()) {
            if (kind.code.equals(code)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown subject kind: " + code);
    }
}
