package dev.klave.installation;

import static java.util.Objects.requireNonNull;

/**
 * Something administrators should know (spec 2 §5): the provider's discovery failing, the people
 * linked by e-mail this week, the forge's two-factor setting unreadable.
 *
 * @param code which notice it is
 * @param level whether administrators should act on it
 */
public record Notice(NoticeCode code, NoticeLevel level, String message) {
    public Notice {
        requireNonNull(code, "code is null");
        requireNonNull(level, "level is null");
        requireNonNull(message, "message is null");
    }
}
