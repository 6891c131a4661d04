package dev.klave.storage;

/** A unique key (a login, a token hash…) is already taken. */
public final class AlreadyExistsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AlreadyExistsException(String message, Throwable cause) {
        super(message, cause);
    }
}
