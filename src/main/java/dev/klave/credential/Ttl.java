package dev.klave.credential;

import dev.klave.messages.Message;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A credential lifetime as people write it: {@code 30m}, {@code 12h}, {@code 7d}. */
public final class Ttl {
    private static final Pattern FORMAT = Pattern.compile("([1-9][0-9]{0,5})([mhd])");

    private Ttl() {}

    /** @throws dev.klave.messages.Refusal 400 {@code ttl no válido: usa por ejemplo 7d o 12h} */
    public static Duration parse(String text) {
        Matcher matcher = FORMAT.matcher(text == null ? "" : text.strip());
        if (!matcher.matches()) {
            throw Message.TTL_INVALID.refusal();
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }

    /** How operators write a limit back: whole days, hours or minutes. */
    public static String format(Duration duration) {
        if (duration.toMinutes() % (24 * 60) == 0) {
            return duration.toDays() + "d";
        }
        if (duration.toMinutes() % 60 == 0) {
            return duration.toHours() + "h";
        }
        return duration.toMinutes() + "m";
    }
}
