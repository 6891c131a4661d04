package dev.klave.storage;

/** The database could not be reached or did not answer; the caller fails closed. */
public final class DatabaseUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
