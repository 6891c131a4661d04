package dev.klave.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EncryptionKeyFileTest {
    @TempDir
    Path directory;

    @Test
    void firstStartGeneratesAKeyReadableOnlyByItsOwner() throws Exception {
        Path file = directory.resolve("data/encryption.key");

        MasterKey key = EncryptionKeyFile.resolve(new EncryptionKeySource.GeneratedFile(file), new SecureRandom());

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Base64.getDecoder().decode(Files.readString(file).strip())).hasSize(32).isEqualTo(key.bytes());
        assertThat(Files.list(file.getParent())).containsExactly(file);
    }

    @Test
    void laterStartsReadTheSameKey() {
        Path file = directory.resolve("encryption.key");
        EncryptionKeySource source = new EncryptionKeySource.GeneratedFile(file);

        MasterKey first = EncryptionKeyFile.resolve(source, new SecureRandom());
        MasterKey second = EncryptionKeyFile.resolve(source, new SecureRandom());

        assertThat(second.bytes()).isEqualTo(first.bytes());
    }

    @Test
    void damagedKeyFileStopsTheStart() throws Exception {
        Path file = directory.resolve("encryption.key");
        Files.writeString(file, "c2hvcnQ=\n");

        assertThatThrownBy(() -> EncryptionKeyFile.resolve(new EncryptionKeySource.GeneratedFile(file),
                new SecureRandom()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("must be base64 of exactly 32 bytes");
    }

    @Test
    void keyGivenInTheEnvironmentIsUsedAsIs() {
        MasterKey given = MasterKey.parseBase64("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");

        assertThat(EncryptionKeyFile.resolve(new EncryptionKeySource.Given(given), new SecureRandom()))
                .isSameAs(given);
        assertThat(given.toString()).doesNotContain("AAECAw");
    }
}
