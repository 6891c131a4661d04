package dev.klave.config;

import java.util.Base64;

/** 32 secret bytes from which every other key is derived; never printed. */
public final class MasterKey {
    public static final int LENGTH = 32;

    private final byte[] bytes;

    private MasterKey(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("must be base64 of exactly 32 bytes (got " + bytes.length + ")");
        }
        this.bytes = bytes.clone();
    }

    public static MasterKey of(byte[] bytes) {
        return new MasterKey(bytes);
    }

    /** Accepts standard and URL-safe base64, with or without padding. */
    public static MasterKey parseBase64(String text) {
        String trimmed = text.strip();
        byte[] decoded;
        try {
            decoded = trimmed.contains("-") || trimmed.contains("_")
                    ? Base64.getUrlDecoder().decode(trimmed)
                    : Base64.getDecoder().decode(trimmed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("is not valid base64");
        }
        return new MasterKey(decoded);
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    public String toBase64() {
        return Base64.getEncoder().encodeToString(bytes);
    }

    @Override
    public String toString() {
        return "MasterKey[redacted]";
    }
}
