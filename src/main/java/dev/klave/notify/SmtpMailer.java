package dev.klave.notify;

import static java.util.Objects.requireNonNull;

import dev.klave.config.Secret;
import dev.klave.config.SmtpSettings;
import jakarta.mail.Authenticator;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.PasswordAuthentication;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Date;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;

/**
 * E-mail through Jakarta Mail (Angus Mail) over SMTPS or SMTP with STARTTLS required, the server's
 * certificate checked against {@code tls} (the JDK's trust, plus {@code SSL_CERT_FILE}'s) and its
 * host name; bounded in time like every call out of Klave: each step by {@link #TIMEOUT}, the whole
 * e-mail by {@link #DEADLINE}, so a server that answers a byte at a time is cut off too.
 */
public final class SmtpMailer implements Mailer {
    /** Connecting, each read and each write. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** One whole e-mail, from connecting to the server's last answer. */
    static final Duration DEADLINE = Duration.ofSeconds(20);

    private final SmtpSettings settings;
    private final Session session;
    private final Duration deadline;

    public SmtpMailer(SmtpSettings settings, SSLContext tls) {
        this(settings, tls, DEADLINE);
    }

    /** @param deadline how long one e-mail may take, at most {@link #DEADLINE} */
    SmtpMailer(SmtpSettings settings, SSLContext tls, Duration deadline) {
        this.settings = requireNonNull(settings, "settings is null");
        requireNonNull(tls, "tls is null");
        this.deadline = requireNonNull(deadline, "deadline is null");
        if (deadline.isNegative() || deadline.isZero() || deadline.compareTo(DEADLINE) > 0) {
            throw new IllegalArgumentException("a deadline is positive and at most " + DEADLINE);
        }
        String protocol = settings.security() == SmtpSettings.Security.TLS ? "smtps" : "smtp";
        String prefix = "mail." + protocol + ".";
        Properties properties = new Properties();
        properties.put("mail.transport.protocol", protocol);
        properties.put(prefix + "host", settings.host());
        properties.put(prefix + "port", String.valueOf(settings.port()));
        properties.put(prefix + "connectiontimeout", String.valueOf(TIMEOUT.toMillis()));
        properties.put(prefix + "timeout", String.valueOf(TIMEOUT.toMillis()));
        properties.put(prefix + "writetimeout", String.valueOf(TIMEOUT.toMillis()));
        properties.put(prefix + "auth", String.valueOf(settings.user().isPresent()));
        if (settings.security() != SmtpSettings.Security.NONE) {
            properties.put(prefix + "ssl.socketFactory", tls.getSocketFactory());
            properties.put(prefix + "ssl.checkserveridentity", "true");
        }
        if (settings.security() == SmtpSettings.Security.STARTTLS) {
            properties.put(prefix + "starttls.enable", "true");
            properties.put(prefix + "starttls.required", "true");
        }
        Authenticator authenticator = new Authenticator() {
            @Override
            protected PasswordAuthentication getPasswordAuthentication() {
                return new PasswordAuthentication(settings.user().orElse(""),
                        settings.password().map(Secret::reveal).orElse(""));
            }
        };
        this.session = Session.getInstance(properties, authenticator);
    }

    @Override
    public void send(String to, String subject, String text) throws Exception {
        MimeMessage message = new MimeMessage(session);
        message.setFrom(new InternetAddress(settings.from(), "Klave", StandardCharsets.UTF_8.name()));
        message.setRecipients(Message.RecipientType.TO, InternetAddress.parse(to, true));
        message.setSubject(subject, StandardCharsets.UTF_8.name());
        message.setText(text, StandardCharsets.UTF_8.name());
        message.setSentDate(new Date());
        // Sent on a virtual thread of its own and waited for until the deadline; past it, an interrupt
        // closes the socket the send blocks on (a virtual thread's socket I/O is interruptible, JEP 444).
        FutureTask<Void> sending = new FutureTask<>(() -> {
            Transport.send(message);
            return null;
        });
        Thread.ofVirtual().name("klave-smtp").start(sending);
        try {
            sending.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            sending.cancel(true);
            long millis = deadline.toMillis();
            throw new MessagingException("no complete answer from the mail server within "
                    + (millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms"));
        } catch (InterruptedException e) {
            sending.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
