package dev.klave.cli;

import dev.klave.config.InvalidSettingsException;
import dev.klave.config.Settings;
import dev.klave.config.SettingsLoader;
import java.io.PrintWriter;
import java.util.Optional;

/** Reads the settings for a command, reporting every problem on standard error. */
final class Environment {
    private Environment() {}

    static Optional<Settings> settings(PrintWriter err) {
        try {
            return Optional.of(SettingsLoader.load(System.getenv()));
        } catch (InvalidSettingsException e) {
            err.println("klave: the settings are not valid:");
            e.problems().forEach(problem -> err.println("  - " + problem));
            err.flush();
            return Optional.empty();
        }
    }
}
