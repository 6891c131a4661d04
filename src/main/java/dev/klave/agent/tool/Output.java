package dev.klave.agent.tool;

import java.nio.charset.StandardCharsets;

/** Spec 3 §8: a tool's answer is at most 256 KiB; a longer one is cut and says so. */
final class Output {
    static final int LIMIT = 256 * 1024;

    private Output() {}

    static String cut(String text, String how) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= LIMIT) {
            return text;
        }
        String note = "\n[cut: the answer is longer than 256 KiB; " + how + "]";
        int keep = LIMIT - note.getBytes(StandardCharsets.UTF_8).length;
        // Back up to the start of a UTF-8 sequence, so no character is split.
        while (keep > 0 && (bytes[keep] & 0xC0) == 0x80) {
            keep--;
        }
        return new String(bytes, 0, keep, StandardCharsets.UTF_8) + note;
    }
}
