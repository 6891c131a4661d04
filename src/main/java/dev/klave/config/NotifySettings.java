package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * Notifications (issue 41): e-mail when {@code SERVICE_SMTP_URL} is set, and the private addresses
 * webhooks may reach besides public ones ({@code SERVICE_WEBHOOK_ALLOW}, address blocks; none by
 * default, so a destination can never be pointed at the cloud's metadata or the cluster's inside).
 */
public record NotifySettings(Optional<SmtpSettings> smtp, List<Cidr> webhookAllow) {
    public static final NotifySettings NONE = new NotifySettings(Optional.empty(), List.of());

    public NotifySettings {
        requireNonNull(smtp, "smtp is null");
        webhookAllow = List.copyOf(requireNonNull(webhookAllow, "webhookAllow is null"));
    }
}
