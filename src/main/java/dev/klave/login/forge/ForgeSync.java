package dev.klave.login.forge;

import static java.util.Objects.requireNonNull;

import dev.klave.account.AccountLifecycle;
import dev.klave.account.ExternalIdentity;
import dev.klave.account.ExternalIdentityStore;
import dev.klave.account.IdentityProvider;
import dev.klave.audit.Via;
import dev.klave.messages.Untrusted;
import dev.klave.storage.LeaseStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Automatic offboarding by the hourly member sync (spec 1 §5 "Automatic offboarding"). Each
 * replica tries once an hour, the first time a minute after it starts; a lease in the database
 * makes them take turns, and a pass finished by any replica within the last {@link #FRESH} counts
 * for all. A pass lists the organisation's members and disables linked accounts whose forge id is
 * no longer among them, and refreshes renamed logins. It never disables when the list cannot be
 * trusted — any error, a failing page, the App uninstalled, zero members — never re-enables, and
 * disables an account only while it is still linked to the id the pass observed.
 */
public final class ForgeSync implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ForgeSync.class);
    public static final Duration PERIOD = Duration.ofHours(1);
    public static final Duration FIRST_PASS = Duration.ofMinutes(1);
    /** A pass this recent, by any replica, makes another one now pointless. */
    static final Duration FRESH = Duration.ofMinutes(50);
    /** Longer than any pass; a replica that dies mid-pass frees the sync after this. */
    static final Duration LEASE = Duration.ofMinutes(10);
    static final String LEASE_NAME = "forge-sync";

    private final ForgeApi forge;
    private final ExternalIdentityStore identities;
    private final AccountLifecycle lifecycle;
    private final LeaseStore leases;
    private final SyncReportStore reports;
    private final String replica;
    private final Clock clock;
    private final ScheduledExecutorService scheduler;

    public ForgeSync(ForgeApi forge, ExternalIdentityStore identities, AccountLifecycle lifecycle, LeaseStore leases,
            SyncReportStore reports, String replica, Clock clock) {
        this.forge = requireNonNull(forge, "forge is null");
        this.identities = requireNonNull(identities, "identities is null");
        this.lifecycle = requireNonNull(lifecycle, "lifecycle is null");
        this.leases = requireNonNull(leases, "leases is null");
        this.reports = requireNonNull(reports, "reports is null");
        this.replica = requireNonNull(replica, "replica is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("klave-forge-sync").factory());
    }

    /** Schedules the passes: the first one minute from now, then hourly. */
    public void start() {
        scheduler.scheduleWithFixedDelay(this::runQuietly, FIRST_PASS.toSeconds(), PERIOD.toSeconds(),
                TimeUnit.SECONDS);
    }

    /** What {@link #runOnce} did. */
    public enum Run {
        /** This replica ran a pass (its report says how it went). */
        RAN,
        /** Another replica holds the lease: a pass is running there. */
        BUSY,
        /** A pass finished within the last {@link #FRESH}. */
        RECENT
    }

    private void runQuietly() {
        try {
            runOnce();
        } catch (RuntimeException e) {
            // The next hour tries again; a failure here must not stop the schedule.
            LOG.error("forge sync failed: {}", Untrusted.text(String.valueOf(e.getMessage())), e);
        }
    }

    public Run runOnce() {
        Instant start = clock.instant();
        if (recent(start)) {
            return Run.RECENT;
        }
        if (!leases.tryAcquire(LEASE_NAME, replica, start, LEASE)) {
            return Run.BUSY;
        }
        try {
            // Asked again under the lease: another replica may have finished its pass, and let
            // the lease go, between the first look and this one (seen as two passes at once).
            if (recent(start)) {
                return Run.RECENT;
            }
            SyncReport report = pass(start);
            reports.save(report);
            return Run.RAN;
        } finally {
            leases.release(LEASE_NAME, replica);
        }
    }

    /** The last pass's report, whichever replica ran it (metrics, the status API). */
    public Optional<SyncReport> lastReport() {
        return reports.last();
    }

    private boolean recent(Instant start) {
        Optional<SyncReport> last = reports.last();
        return last.isPresent() && start.isBefore(last.get().finishedAt().plus(FRESH))
                && !start.isBefore(last.get().finishedAt());
    }

    private SyncReport pass(Instant start) {
        // The accounts linked when the pass begins: one linked while it runs is not judged by it.
        List<ExternalIdentity> linked = identities.list(IdentityProvider.FORGE);
        List<ForgeUser> members;
        try {
            members = forge.members();
        } catch (ForgeUnavailableException e) {
            return aborted(start, 0, "member list: " + e.getMessage());
        }
        if (members.isEmpty()) {
            return aborted(start, 0, "the forge listed zero members: nobody disabled");
        }
        Optional<Boolean> twoFactor = twoFactor();
        Map<Long, ForgeUser> byId = members.stream()
                .collect(Collectors.toMap(ForgeUser::id, Function.identity(), (first, second) -> first));
        int disabled = 0;
        int renamed = 0;
        for (ExternalIdentity identity : linked) {
            ForgeUser member = byId.get(identity.key().forgeId());
            if (member == null) {
                disabled += offboard(identity) ? 1 : 0;
            } else if (!identity.display().map(member.login()::equals).orElse(false)
                    && identities.refresh(identity.subjectId(), identity.key(), Optional.of(member.login()),
                            identity.email())) {
                renamed++;
                LOG.info("forge sync: forge account {} renamed to {}", identity.key().forgeId(),
                        Untrusted.text(member.login()));
            }
        }
        LOG.info("forge sync: {} members, {} linked accounts, {} disabled, {} renamed", members.size(), linked.size(),
                disabled, renamed);
        return new SyncReport(start, clock.instant(), replica, members.size(), disabled, renamed, twoFactor,
                Optional.empty());
    }

    private boolean offboard(ExternalIdentity identity) {
        AccountLifecycle.AutomaticDisable result = lifecycle.disableLinked(identity, Via.FORGE_SYNC);
        switch (result) {
            case DISABLED -> LOG.info("forge sync: disabled account {} (forge account {} left the organisation)",
                    identity.subjectId().value(), identity.key().forgeId());
            case LAST_ADMIN -> LOG.error("forge sync: forge account {} left the organisation, but account {} is the "
                    + "last administrator able to sign in: not disabled", identity.key().forgeId(),
                    identity.subjectId().value());
            case NOT_LINKED, ALREADY_DISABLED -> {
                // Relinked since the pass began, or already off: nothing to do.
            }
        }
        return result == AccountLifecycle.AutomaticDisable.DISABLED;
    }

    /** Spec 1 §5 "Forge login checks" 5: without the permission, warn on every pass. */
    private Optional<Boolean> twoFactor() {
        try {
            Optional<Boolean> required = forge.twoFactorRequired();
            if (required.isEmpty()) {
                LOG.warn("forge sync: the App cannot read whether the organisation requires two-factor "
                        + "(grant it the Administration read permission); sign-ins are not checked for it");
            } else if (!required.get()) {
                LOG.warn("forge sync: the organisation does not require two-factor authentication");
            }
            return required;
        } catch (ForgeUnavailableException e) {
            LOG.warn("forge sync: could not read the organisation's two-factor setting: {}", e.getMessage());
            return Optional.empty();
        }
    }

    private SyncReport aborted(Instant start, int members, String error) {
        LOG.error("forge sync aborted, nobody disabled: {}", error);
        return new SyncReport(start, clock.instant(), replica, members, 0, 0, Optional.empty(), Optional.of(error));
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
