package dev.klave.installation;

import static java.util.Objects.requireNonNull;

import dev.klave.account.LastAdminRule;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.audit.Via;
import dev.klave.login.forge.SyncReport;
import dev.klave.login.forge.SyncReportStore;
import dev.klave.login.oidc.DiscoveryStatus;
import dev.klave.login.oidc.OidcProvider;
import dev.klave.messages.Text;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * The administrators' view of the installation: the notices (spec 2 §5 "Discovery", "Accounts
 * and password") and the health checks, each computed when asked from what every replica shares
 * (database rows), so every replica shows the same.
 */
public final class Installation {
    /** Spec 2 §5: the count of people linked by e-mail is the week's. */
    static final Duration WEEK = Duration.ofDays(7);
    /** Spec 3 §8: registered OAuth clients at most (oauth.Registration's cap). */
    static final int MAX_CLIENTS = 10_000;

    private final BooleanSupplier databaseAnswers;
    private final LastAdminRule lastAdmin;
    private final boolean externalSignIn;
    private final Optional<OidcProvider> oidc;
    private final Optional<SyncReportStore> forgeSync;
    private final Optional<IntSupplier> registeredClients;
    private final ControlEvents events;
    private final java.util.function.Supplier<List<String>> failingDestinations;
    private final Clock clock;

    public Installation(BooleanSupplier databaseAnswers, LastAdminRule lastAdmin, boolean externalSignIn,
            Optional<OidcProvider> oidc, Optional<SyncReportStore> forgeSync, Optional<IntSupplier> registeredClients,
            ControlEvents events, Clock clock) {
        this(databaseAnswers, lastAdmin, externalSignIn, oidc, forgeSync, registeredClients, events, List::of, clock);
    }

    /** @param failingDestinations the names of notifications' destinations that keep failing (issue 41) */
    public Installation(BooleanSupplier databaseAnswers, LastAdminRule lastAdmin, boolean externalSignIn,
            Optional<OidcProvider> oidc, Optional<SyncReportStore> forgeSync, Optional<IntSupplier> registeredClients,
            ControlEvents events, java.util.function.Supplier<List<String>> failingDestinations, Clock clock) {
        this.failingDestinations = requireNonNull(failingDestinations, "failingDestinations is null");
        this.databaseAnswers = requireNonNull(databaseAnswers, "databaseAnswers is null");
        this.lastAdmin = requireNonNull(lastAdmin, "lastAdmin is null");
        this.externalSignIn = externalSignIn;
        this.oidc = requireNonNull(oidc, "oidc is null");
        this.forgeSync = requireNonNull(forgeSync, "forgeSync is null");
        this.registeredClients = requireNonNull(registeredClients, "registeredClients is null");
        this.events = requireNonNull(events, "events is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public List<Notice> notices() {
        List<Notice> notices = new ArrayList<>();
        discovery().filter(DiscoveryStatus::failing).ifPresent(status -> notices.add(new Notice(
                NoticeCode.OIDC_DISCOVERY_FAILING, NoticeLevel.WARNING,
                Text.NOTICE_OIDC_DISCOVERY_FAILING.text(oidcName(),
                        status.explanation().orElse(Text.NOTICE_UNKNOWN_ERROR.text()), oidcName()))));
        if (oidc.isPresent()) {
            int linked = events.count(EventType.OIDC_LINK, Optional.of(Via.EMAIL), clock.instant().minus(WEEK));
            if (linked > 0) {
                notices.add(new Notice(NoticeCode.OIDC_LINKED_BY_EMAIL, NoticeLevel.INFO, (linked == 1
                        ? Text.NOTICE_LINKED_BY_EMAIL_ONE : Text.NOTICE_LINKED_BY_EMAIL_MANY).text(linked)));
            }
        }
        lastSync().filter(report -> report.error().isEmpty() && report.twoFactorRequired().isEmpty())
                .ifPresent(report -> notices.add(new Notice(NoticeCode.FORGE_2FA_UNREADABLE, NoticeLevel.WARNING,
                        Text.NOTICE_FORGE_2FA_UNREADABLE.text())));
        failingDestinations.get().forEach(name -> notices.add(new Notice(NoticeCode.NOTIFY_DESTINATION_FAILING,
                NoticeLevel.WARNING, Text.NOTIFY_DESTINATION_FAILING.text(name))));
        return List.copyOf(notices);
    }

    public List<HealthCheck> checks() {
        List<HealthCheck> checks = new ArrayList<>();
        boolean database = databaseAnswers.getAsBoolean();
        checks.add(new HealthCheck(CheckName.DATABASE, database ? CheckState.OK : CheckState.FAILING,
                database ? Optional.empty() : Optional.of(Text.CHECK_DATABASE_DOWN.text())));
        if (!database) {
            return List.copyOf(checks);
        }
        boolean admin = !externalSignIn || lastAdmin.anyAdminCanSignIn();
        checks.add(new HealthCheck(CheckName.ADMIN_CAN_SIGN_IN, admin ? CheckState.OK : CheckState.FAILING,
                admin ? Optional.empty() : Optional.of(Text.CHECK_NO_ADMIN_CAN_SIGN_IN.text())));
        checks.add(oidc.isEmpty() ? new HealthCheck(CheckName.OIDC_DISCOVERY, CheckState.OFF, Optional.empty())
                : discovery().map(status -> status.failing()
                        // In Spanish; the technical error is in /api/oidc/status.
                        ? new HealthCheck(CheckName.OIDC_DISCOVERY, CheckState.FAILING, status.explanation())
                        : new HealthCheck(CheckName.OIDC_DISCOVERY, CheckState.OK, Optional.empty()))
                // Spec 2 §5 "Discovery": "not fetched yet" is its own state; only a failed fetch fails.
                .orElse(new HealthCheck(CheckName.OIDC_DISCOVERY, CheckState.OK,
                        Optional.of(Text.CHECK_DISCOVERY_NOT_FETCHED.text()))));
        checks.add(forgeSync.isEmpty() ? new HealthCheck(CheckName.FORGE_SYNC, CheckState.OFF, Optional.empty())
                : lastSync().map(report -> report.error().isPresent()
                        ? new HealthCheck(CheckName.FORGE_SYNC, CheckState.FAILING, report.error())
                        : new HealthCheck(CheckName.FORGE_SYNC, CheckState.OK, Optional.empty()))
                .orElse(new HealthCheck(CheckName.FORGE_SYNC, CheckState.OK,
                        Optional.of(Text.CHECK_FORGE_NEVER_SYNCED.text()))));
        checks.add(registeredClients.map(count -> clients(count.getAsInt()))
                .orElse(new HealthCheck(CheckName.OAUTH_CLIENTS, CheckState.OFF, Optional.empty())));
        return List.copyOf(checks);
    }

    /**
     * Spec 3 §8 caps registered clients at 10 000, and anyone may register: from 80 % of the cap
     * the check fails, saying how many there are and where to purge those that never signed in.
     */
    private static HealthCheck clients(int registered) {
        boolean near = registered * 5L >= MAX_CLIENTS * 4L;
        return new HealthCheck(CheckName.OAUTH_CLIENTS, near ? CheckState.FAILING : CheckState.OK,
                Optional.of((near ? Text.CHECK_OAUTH_CLIENTS_NEAR_CAP : Text.CHECK_OAUTH_CLIENTS).text(registered,
                        MAX_CLIENTS)));
    }

    /** OIDC as people read it: the provider's display name (spec 2 §7 {name}). */
    private String oidcName() {
        return oidc.map(OidcProvider::displayName).orElse("OIDC");
    }

    private Optional<DiscoveryStatus> discovery() {
        return oidc.flatMap(OidcProvider::status);
    }

    private Optional<SyncReport> lastSync() {
        return forgeSync.flatMap(SyncReportStore::last);
    }
}
