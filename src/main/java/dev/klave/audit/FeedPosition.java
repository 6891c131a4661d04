package dev.klave.audit;

import dev.klave.messages.Message;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Where a reader of the audit feed stands (issue 32): the writing transaction's id and the entry's
 * number on PostgreSQL, the number alone on SQLite ({@code transaction} 0). Opaque to clients.
 */
public record FeedPosition(long transaction, long number) implements Comparable<FeedPosition> {
    public static final FeedPosition START = new FeedPosition(0, 0);

    public FeedPosition {
        if (transaction < 0 || number < 0) {
            throw new IllegalArgumentException("a feed position is not negative");
        }
    }

    public String encode() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(("f" + transaction + "." + number)
                .getBytes(StandardCharsets.US_ASCII));
    }

    /** @throws dev.klave.messages.Refusal 400 for anything {@link #encode()} did not write */
    public static FeedPosition decode(String text) {
        try {
            String plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.US_ASCII);
            if (!plain.startsWith("f")) {
                throw new IllegalArgumentException("not a feed position");
            }
            int dot = plain.indexOf('.');
            return new FeedPosition(Long.parseLong(plain.substring(1, dot)), Long.parseLong(plain.substring(dot + 1)));
        } catch (RuntimeException e) {
            throw Message.CURSOR_INVALID.refusal();
        }
    }

    @Override
    public int compareTo(FeedPosition other) {
        int byTransaction = Long.compare(transaction, other.transaction);
        return byTransaction != 0 ? byTransaction : Long.compare(number, other.number);
    }
}
