package dev.klave;

import dev.klave.config.Settings;
import dev.klave.crypto.KeyPurpose;
import dev.klave.crypto.Sealer;
import dev.klave.notify.Deliverer;
import dev.klave.notify.Destinations;
import dev.klave.notify.Mailer;
import dev.klave.notify.Notifier;
import dev.klave.notify.NotifyRoutes;
import dev.klave.notify.SmtpMailer;
import dev.klave.notify.WebhookSender;
import dev.klave.outbound.Resolver;
import dev.klave.store.Database;
import dev.klave.store.JdbiDestinationStore;
import dev.klave.store.JdbiOutbox;
import java.security.SecureRandom;
import javax.net.ssl.SSLContext;

/**
 * Notifications (issue 41 §2): the outbox every area writes to through {@link Notifier}, the
 * webhook destinations, e-mail when {@code SERVICE_SMTP_URL} is set, and the thread that delivers.
 * {@link #start()} starts delivering; nothing is sent before.
 */
final class NotifyWiring {
    final Notifier notifier;
    final Destinations destinations;
    final Deliverer deliverer;
    final NotifyRoutes routes;

    /** @param outboundTls what webhooks' and the mail server's certificates must chain to */
    NotifyWiring(Database database, Settings settings, AccountsWiring accounts, SSLContext outboundTls,
            SecureRandom random) {
        JdbiDestinationStore store = new JdbiDestinationStore(database,
                new Sealer(accounts.keys.derive(KeyPurpose.NOTIFY_DESTINATIONS), random));
        JdbiOutbox outbox = new JdbiOutbox(database);
        boolean email = settings.notifications().smtp().isPresent();
        Mailer mailer = settings.notifications().smtp().<Mailer>map(smtp -> new SmtpMailer(smtp, outboundTls))
                .orElse(Mailer.NONE);
        WebhookSender webhooks = new WebhookSender(outboundTls, settings.notifications().webhookAllow(),
                Resolver.system(), accounts.clock);
        deliverer = new Deliverer(outbox, store, webhooks, mailer, accounts.clock);
        notifier = new Notifier(store, outbox, accounts.subjects, email, random, accounts.clock, deliverer::wake);
        destinations = new Destinations(database, store, outbox, notifier, accounts.events, webhooks,
                settings.baseUrl(), random, accounts.clock);
        routes = new NotifyRoutes(destinations, email);
    }

    private java.util.Optional<dev.klave.notify.Alerts> alerts = java.util.Optional.empty();

    /** Administrators' notices, told by {@code watching} once started. */
    void watch(dev.klave.notify.Alerts watching) {
        alerts = java.util.Optional.of(watching);
    }

    void start() {
        deliverer.start();
        alerts.ifPresent(dev.klave.notify.Alerts::start);
    }

    void close() {
        alerts.ifPresent(dev.klave.notify.Alerts::close);
        deliverer.close();
    }
}
