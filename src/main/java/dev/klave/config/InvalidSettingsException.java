package dev.klave.config;

import java.util.List;

/** Thrown when one or more variables are wrong; {@link #problems()} lists each, one line apiece. */
public final class InvalidSettingsException extends Exception {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public InvalidSettingsException(List<String> problems) {
        super("invalid settings: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
