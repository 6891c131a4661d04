package dev.klave.simulator;

import java.security.SecureRandom;

/** The five-character suffix the apiserver appends to generateName (names.SimpleNameGenerator). */
final class GeneratedNames {
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private GeneratedNames() {
    }

    static String suffix() {
        StringBuilder suffix = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            suffix.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return suffix.toString();
    }
}
