package dev.klave.login.forge;

/**
 * The forge did not answer as it should: a 5xx, a timeout, a refused connection, an answer that
 * cannot be read. Spec 1 §5: a sign-in then fails with {@code forge}, and a sync pass aborts
 * without disabling anyone. The message never holds a token.
 */
public final class ForgeUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    public ForgeUnavailableException(String message) {
        super(message);
    }

    public ForgeUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
