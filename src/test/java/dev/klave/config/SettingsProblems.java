package dev.klave.config;

import java.util.List;
import java.util.Map;

/** The problems {@link SettingsLoader} lists for an environment it refuses. */
final class SettingsProblems {
    private SettingsProblems() {}

    static List<String> of(Map<String, String> environment) {
        try {
            SettingsLoader.load(environment);
        } catch (InvalidSettingsException e) {
            return e.problems();
        }
        throw new AssertionError("settings were accepted: " + environment.keySet());
    }
}
