package dev.klave.recording;

/**
 * Whether what a session's client types (its stdin) goes into the recording: a cluster's setting,
 * off unless an administrator asks for it (issue 51 §17), and then each recording's fact. Stored and
 * shown as a boolean ({@code stdin}, {@code stdin_recorded}); only those edges convert.
 */
public enum Stdin {
    RECORDED, NOT_RECORDED;

    public static Stdin of(boolean recorded) {
        return recorded ? RECORDED : NOT_RECORDED;
    }

    public boolean recorded() {
        return this == RECORDED;
    }
}
