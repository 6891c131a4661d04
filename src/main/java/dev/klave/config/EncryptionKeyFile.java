package dev.klave.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master key of an SQLite installation that did not set {@code SERVICE_ENCRYPTION_KEY}: read
 * from its file, or generated into it (mode 0600) on first start.
 */
public final class EncryptionKeyFile {
    private static final Logger LOG = LoggerFactory.getLogger(EncryptionKeyFile.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private EncryptionKeyFile() {}

    public static MasterKey resolve(EncryptionKeySource source, SecureRandom random) {
        return switch (source) {
            case EncryptionKeySource.Given given -> given.key();
            case EncryptionKeySource.GeneratedFile file -> loadOrCreate(file.file(), random);
        };
    }

    static MasterKey loadOrCreate(Path file, SecureRandom random) {
        try {
            if (Files.exists(file)) {
                return read(file);
            }
            byte[] bytes = new byte[MasterKey.LENGTH];
            random.nextBytes(bytes);
            MasterKey key = MasterKey.of(bytes);
            Files.createDirectories(file.toAbsolutePath().getParent());
            // Written under a temporary name with its final permissions, then moved into place,
            // so the key is never readable by others, not even for an instant.
            Path temporary = Files.createTempFile(file.toAbsolutePath().getParent(), ".encryption", ".tmp",
                    PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            Files.writeString(temporary, key.toBase64() + "\n", StandardCharsets.US_ASCII);
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException e) {
                Files.deleteIfExists(temporary);
                return read(file);
            }
            if (Files.exists(temporary)) {
                Files.deleteIfExists(temporary);
            }
            LOG.warn("SERVICE_ENCRYPTION_KEY is not set: generated a new key in {}. Back this file up with the "
                    + "database; without it stored cluster tokens cannot be read. Set SERVICE_ENCRYPTION_KEY "
                    + "in production.", file);
            return key;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create the encryption key file " + file, e);
        }
    }

    private static MasterKey read(Path file) throws IOException {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        if (!OWNER_ONLY.containsAll(permissions)) {
            LOG.warn("{} is readable by others ({}); restrict it with chmod 600", file,
                    PosixFilePermissions.toString(permissions));
        }
        try {
            return MasterKey.parseBase64(Files.readString(file, StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the encryption key file " + file + " " + e.getMessage());
        }
    }
}
