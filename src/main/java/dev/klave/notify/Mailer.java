package dev.klave.notify;

/** Sends one plain-text e-mail; throws what went wrong, to be retried. */
@FunctionalInterface
public interface Mailer {
    void send(String to, String subject, String text) throws Exception;

    /** E-mail is not set up: nothing is ever queued for it. */
    Mailer NONE = (to, subject, text) -> {
        throw new IllegalStateException("e-mail is not set up (SERVICE_SMTP_URL)");
    };
}
