package dev.klave.testing;

import dev.klave.config.InvalidSettingsException;
import dev.klave.config.Settings;
import dev.klave.config.SettingsLoader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Settings for a Klave started inside a test: any free port on loopback, SQLite in a temp folder. */
public final class TestingSettings {
    public static final String KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

    private final Map<String, String> environment = new HashMap<>();

    private TestingSettings(Path directory) {
        environment.put(SettingsLoader.LISTEN, "127.0.0.1:0");
        environment.put(SettingsLoader.DATABASE_URL, "sqlite:" + directory.resolve("klave.db"));
        environment.put(SettingsLoader.ENCRYPTION_KEY, KEY);
        environment.put(SettingsLoader.SHUTDOWN_DELAY, "0s");
        environment.put(SettingsLoader.SHUTDOWN_TIMEOUT, "10s");
    }

    public static TestingSettings sqliteIn(Path directory) {
        return new TestingSettings(directory);
    }

    public TestingSettings with(String name, String value) {
        environment.put(name, value);
        return this;
    }

    public Settings build() {
        try {
            return SettingsLoader.load(environment);
        } catch (InvalidSettingsException e) {
            throw new IllegalArgumentException(e.problems().toString(), e);
        }
    }
}
