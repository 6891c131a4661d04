package dev.klave.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations written as operators write them: {@code 500ms}, {@code 30s}, {@code 15m}, {@code 12h}, {@code 7d}. */
public final class Durations {
    private static final Pattern FORMAT = Pattern.compile("([0-9]{1,9})(ms|s|m|h|d)");

    private Durations() {}

    public static Duration parse(String text) {
        Matcher matcher = FORMAT.matcher(text.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("must be a number followed by ms, s, m, h or d, e.g. 30s");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            case "d" -> Duration.ofDays(amount);
            default -> throw new IllegalStateException("unreachable");
        };
    }
}
