package dev.klave.crypto;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * Argon2id password hashes (RFC 9106) in the PHC string format
 * {@code $argon2id$v=19$m=…,t=…,p=…$salt$hash}, so the parameters travel with each hash and can be
 * raised later without breaking stored ones. The default parameters are OWASP's first
 * recommendation for Argon2id: 19 MiB of memory, 2 passes, 1 lane.
 */
public final class PasswordHasher {
    private static final Pattern PHC = Pattern.compile(
            "\\$argon2id\\$v=19\\$m=(\\d+),t=(\\d+),p=(\\d+)\\$([A-Za-z0-9+/]+)\\$([A-Za-z0-9+/]+)");
    private static final Base64.Encoder ENCODER = Base64.getEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getDecoder();
    private static final int SALT_BYTES = 16;
    private static final int HASH_BYTES = 32;

    private final SecureRandom random;
    private final int memoryKib;
    private final int iterations;
    private final int parallelism;
    private final String dummy;

    public PasswordHasher(SecureRandom random) {
        this(random, 19 * 1024, 2, 1);
    }

    public PasswordHasher(SecureRandom random, int memoryKib, int iterations, int parallelism) {
        this.random = requireNonNull(random, "random is null");
        this.memoryKib = memoryKib;
        this.iterations = iterations;
        this.parallelism = parallelism;
        // Verified against when there is no real hash, so that an unknown login costs what a
        // known one costs (spec 1 §5: same answer, same time).
        this.dummy = hash("klave-dummy-password-" + random.nextLong());
    }

    public String hash(String password) {
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        byte[] hash = argon2(password, salt, memoryKib, iterations, parallelism);
        return "$argon2id$v=19$m=" + memoryKib + ",t=" + iterations + ",p=" + parallelism + "$"
                + ENCODER.encodeToString(salt) + "$" + ENCODER.encodeToString(hash);
    }

    /** Whether {@code password} matches {@code stored}; a malformed hash never matches. */
    public boolean verify(String password, String stored) {
        Matcher matcher = PHC.matcher(stored);
        if (!matcher.matches()) {
            return false;
        }
        byte[] expected = DECODER.decode(matcher.group(5));
        byte[] actual = argon2(password, DECODER.decode(matcher.group(4)), Integer.parseInt(matcher.group(1)),
                Integer.parseInt(matcher.group(2)), Integer.parseInt(matcher.group(3)));
        return MessageDigest.isEqual(expected, actual);
    }

    /** Spends the time of one verification and answers false: for logins with no usable hash. */
    public boolean verifyNothing(String password) {
        verify(password, dummy);
        return false;
    }

    private static byte[] argon2(String password, byte[] salt, int memoryKib, int iterations, int parallelism) {
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withMemoryAsKB(memoryKib)
                .withIterations(iterations)
                .withParallelism(parallelism)
                .withSalt(salt)
                .build());
        byte[] hash = new byte[HASH_BYTES];
        generator.generateBytes(password.getBytes(StandardCharsets.UTF_8), hash);
        return hash;
    }
}
