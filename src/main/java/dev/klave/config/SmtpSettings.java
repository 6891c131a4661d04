package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Where notifications by e-mail go (issue 41): {@code SERVICE_SMTP_URL} and {@code SERVICE_SMTP_FROM}.
 * {@code smtps://user:password@host:465} speaks TLS from the first byte; {@code
 * smtp://user:password@host:587} must switch to TLS (STARTTLS is required, never optional). Only a
 * relay on this machine's loopback may be spoken to in clear, and only when asked for with {@code
 * ?tls=none}. The user and password are percent-decoded and never shown.
 */
public record SmtpSettings(String host, int port, Security security, Optional<String> user,
        Optional<Secret> password, String from) {
    public SmtpSettings {
        requireNonNull(host, "host is null");
        requireNonNull(security, "security is null");
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
        requireNonNull(from, "from is null");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("the port is 1 to 65535");
        }
    }

    /** How the connection is protected. */
    public enum Security {
        /** SMTPS: TLS from the first byte (RFC 8314). */
        TLS,
        /** SMTP that must upgrade with STARTTLS before anything is sent (RFC 3207). */
        STARTTLS,
        /** In clear: a relay on the loopback only. */
        NONE
    }

    /** @throws IllegalArgumentException saying what is wrong, never the password */
    public static SmtpSettings parse(String url, String from) {
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: smtps://user:password@host:465 or smtp://…:587");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("smtp") && !scheme.equals("smtps")) {
            throw new IllegalArgumentException("the scheme is smtps (TLS) or smtp (STARTTLS required)");
        }
        if (uri.getHost() == null || uri.getHost().isBlank()) {
            throw new IllegalArgumentException("the URL names no host");
        }
        if (uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/")) {
            throw new IllegalArgumentException("the URL has no path");
        }
        String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
        boolean clear = query.equals("tls=none");
        if (!query.isEmpty() && !clear) {
            throw new IllegalArgumentException("the only parameter is tls=none, for a relay on the loopback");
        }
        Security security = scheme.equals("smtps") ? Security.TLS : clear ? Security.NONE : Security.STARTTLS;
        if (security == Security.NONE && (scheme.equals("smtps") || !loopback(uri.getHost()))) {
            throw new IllegalArgumentException("tls=none is only for smtp to a relay on the loopback");
        }
        int port = uri.getPort() != -1 ? uri.getPort() : security == Security.TLS ? 465 : 587;
        Optional<String> user = Optional.empty();
        Optional<Secret> password = Optional.empty();
        if (uri.getRawUserInfo() != null) {
            String[] parts = uri.getRawUserInfo().split(":", 2);
            user = Optional.of(URLDecoder.decode(parts[0], StandardCharsets.UTF_8)).filter(text -> !text.isEmpty());
            if (parts.length == 2 && !parts[1].isEmpty()) {
                password = Optional.of(new Secret(URLDecoder.decode(parts[1], StandardCharsets.UTF_8)));
            }
        }
        String sender = from == null ? "" : from.strip();
        if (!sender.matches("[^@\\s<>\"]+@[^@\\s<>\"]+\\.[^@\\s<>\"]+")) {
            throw new IllegalArgumentException("SERVICE_SMTP_FROM must be an e-mail address (got '" + sender + "')");
        }
        return new SmtpSettings(uri.getHost(), port, security, user, password, sender);
    }

    private static boolean loopback(String host) {
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        try {
            String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
            return InetAddress.ofLiteral(bare).isLoopbackAddress();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
