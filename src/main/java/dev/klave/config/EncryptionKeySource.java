package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * Where the 32-byte master key ({@code SERVICE_ENCRYPTION_KEY}) comes from: given in the
 * environment, or — for an SQLite installation only — a file created on first start.
 */
public sealed interface EncryptionKeySource {
    /** The key given in the environment. */
    record Given(MasterKey key) implements EncryptionKeySource {
        public Given {
            requireNonNull(key, "key is null");
        }
    }

    /** A key kept in {@code file} (mode 0600), generated when the file does not exist yet. */
    record GeneratedFile(Path file) implements EncryptionKeySource {
        public GeneratedFile {
            requireNonNull(file, "file is null");
        }
    }
}
