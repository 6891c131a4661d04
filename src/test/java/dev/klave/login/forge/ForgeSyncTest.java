package dev.klave.login.forge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.IdentityProvider;
import dev.klave.account.SubjectId;
import dev.klave.audit.ControlEvent;
import dev.klave.store.JdbiLeaseStore;
import dev.klave.store.JdbiSyncReportStore;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingForge;
import dev.klave.testing.TestingKlave;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The hourly member sync (spec 1 §5 "Automatic offboarding"): who it disables, who it never
 * disables, renames, and the report {@code GET /api/forge/status} shows.
 */
class ForgeSyncTest {
    private static final AtomicInteger LOGINS = new AtomicInteger();

    private final TestingClock clock = new TestingClock(Instant.parse("2026-11-27T09:00:00Z"));
    private TestingForge forge;
    private TestingKlave klave;

    @BeforeEach
    void start() {
        forge = TestingForge.start(clock);
        forge.pageSize(2);
        klave = TestingKlave.startWithForge(clock, forge, settings -> settings);
    }

    @AfterEach
    void stop() {
        klave.close();
        forge.close();
    }

    private ForgeSync sync(ForgeApi api, String replica) {
        return new ForgeSync(api, klave.identities(), klave.hooks().lifecycle(),
                new JdbiLeaseStore(klave.klave().database()), new JdbiSyncReportStore(klave.klave().database()),
                replica, clock);
    }

    private ForgeSync sync() {
        return sync(client(), "replica-a");
    }

    private ForgeClient client() {
        return new ForgeClient(klave.klave().settings().forge().orElseThrow(), forge.clientTls(), clock);
    }

    /** A person linked to a forge account that is an active member (linked directly, no browser). */
    private Linked member(String prefix, boolean admin) {
        TestingForge.Linked linked = forge.linkedPerson(klave, prefix + "-" + LOGINS.incrementAndGet(), admin, true);
        return new Linked(linked.subject().id(), linked.forgeId());
    }

    private record Linked(SubjectId subject, long forgeId) {}

    private boolean enabled(SubjectId id) {
        return klave.accounts().get(id).enabled();
    }

    private SyncReport report() {
        return new JdbiSyncReportStore(klave.klave().database()).last().orElseThrow();
    }

    @Test
    void someoneWhoLeftTheOrganisationIsDisabledViaForgeSyncAndTheOthersStay() {
        member("admin", true);
        Linked stays = member("stays", false);
        Linked leaves = member("leaves", false);
        forge.removeMember(leaves.forgeId());

        assertThat(sync().runOnce()).isEqualTo(ForgeSync.Run.RAN);

        assertThat(enabled(leaves.subject())).isFalse();
        assertThat(enabled(stays.subject())).isTrue();
        ControlEvent disable = klave.events().page(1).events().stream()
                .filter(event -> event.type().equals("user.disable")).findFirst().orElseThrow();
        assertThat(disable.via()).contains("forge-sync");
        assertThat(disable.actor()).isEmpty();
        SyncReport report = report();
        assertThat(report.membersSeen()).isEqualTo(2);
        assertThat(report.disabled()).isEqualTo(1);
        assertThat(report.error()).isEmpty();
        assertThat(report.twoFactorRequired()).contains(true);
    }

    @Test
    void aFailingPageAbortsThePassAndDisablesNobody() {
        member("admin", true);
        member("b", false);
        member("c", false);
        Linked leaves = member("leaves", false);
        forge.removeMember(leaves.forgeId());
        forge.failPage(2);

        sync().runOnce();

        assertThat(enabled(leaves.subject())).isTrue();
        assertThat(report().error()).hasValueSatisfying(error -> assertThat(error).contains("page 2"));
        assertThat(report().disabled()).isZero();
    }

    @Test
    void aForgeErrorATimeoutAnUninstalledAppOrZeroMembersDisableNobody() {
        Linked admin = member("admin", true);
        Linked leaves = member("leaves", false);
        forge.removeMember(leaves.forgeId());

        forge.fault("members", TestingForge.Fault.SERVER_ERROR);
        sync().runOnce();
        assertThat(enabled(leaves.subject())).as("5xx").isTrue();
        assertThat(report().error()).hasValueSatisfying(error -> assertThat(error).contains("HTTP 502"));
        forge.fault("members", TestingForge.Fault.NONE);

        clock.advance(Duration.ofHours(1));
        forge.installed(false);
        sync().runOnce();
        assertThat(enabled(leaves.subject())).as("uninstalled").isTrue();
        assertThat(report().error()).hasValueSatisfying(error -> assertThat(error).contains("not installed"));
        forge.installed(true);

        clock.advance(Duration.ofHours(1));
        forge.removeMember(admin.forgeId());
        sync().runOnce();
        assertThat(enabled(leaves.subject())).as("zero members").isTrue();
        assertThat(enabled(admin.subject())).isTrue();
        assertThat(report().error()).hasValueSatisfying(error -> assertThat(error).contains("zero members"));
        forge.addMember(admin.forgeId());

        clock.advance(Duration.ofHours(1));
        forge.fault("members", TestingForge.Fault.TIMEOUT);
        sync().runOnce();
        assertThat(enabled(leaves.subject())).as("timeout").isTrue();
        assertThat(report().error()).hasValueSatisfying(error -> assertThat(error).contains("answer within 5 s"));
    }

    @Test
    void anAccountRelinkedDuringThePassIsNotDisabled() {
        member("admin", true);
        Linked ana = member("ana", false);
        forge.removeMember(ana.forgeId());
        long newForgeId = forge.createUser("ana-new-" + LOGINS.incrementAndGet());
        forge.addMember(newForgeId);
        ForgeApi client = client();
        // The member list is read after the pass has taken its snapshot of linked accounts; the
        // account is relinked to its new forge account in between.
        ForgeApi relinkingMidPass = new Delegating(client) {
            @Override
            public List<ForgeUser> members() throws ForgeUnavailableException {
                klave.identities().link(new ExternalIdentity(ana.subject(),
                        ExternalIdentity.Key.forge(newForgeId), Optional.of("ana-new"), Optional.empty(),
                        clock.instant()));
                return super.members();
            }
        };

        sync(relinkingMidPass, "replica-a").runOnce();

        assertThat(enabled(ana.subject())).isTrue();
        assertThat(report().disabled()).isZero();
    }

    @Test
    void anAccountUnlinkedAndLinkedAgainToTheSameIdDuringThePassIsNotDisabled() {
        member("admin", true);
        Linked ana = member("ana", false);
        forge.removeMember(ana.forgeId());
        ForgeApi relinkingMidPass = new Delegating(client()) {
            @Override
            public List<ForgeUser> members() throws ForgeUnavailableException {
                List<ForgeUser> members = super.members();
                // Re-admitted and linked again after the list was read: a new link, same forge id.
                clock.advance(Duration.ofSeconds(5));
                klave.identities().unlink(ana.subject(), IdentityProvider.FORGE);
                klave.identities().link(new ExternalIdentity(ana.subject(),
                        ExternalIdentity.Key.forge(ana.forgeId()), Optional.of("ana"), Optional.empty(),
                        clock.instant()));
                return members;
            }
        };

        sync(relinkingMidPass, "replica-a").runOnce();

        assertThat(enabled(ana.subject())).isTrue();
        assertThat(report().disabled()).isZero();
    }

    @Test
    void theLastAdministratorAbleToSignInIsNeverDisabled() {
        Linked admin = member("only-admin", true);
        member("someone", false);
        forge.removeMember(admin.forgeId());

        sync().runOnce();

        assertThat(enabled(admin.subject())).isTrue();
        assertThat(report().disabled()).isZero();
    }

    @Test
    void aRenamedForgeAccountGetsItsNewLogin() {
        member("admin", true);
        Linked ana = member("ana", false);
        forge.rename(ana.forgeId(), "ana-renamed-" + LOGINS.incrementAndGet());

        sync().runOnce();

        assertThat(klave.identities().findFor(ana.subject(), IdentityProvider.FORGE)
                .flatMap(ExternalIdentity::display)).contains(forge.login(ana.forgeId()));
        assertThat(report().renamed()).isEqualTo(1);
    }

    @Test
    void withoutTheAdministrationPermissionThePassReportsTwoFactorUnknown() {
        member("admin", true);
        forge.twoFactorRequired(Optional.empty());

        sync().runOnce();

        assertThat(report().twoFactorRequired()).isEmpty();
        assertThat(report().error()).isEmpty();
    }

    @Test
    void aPassWithinTheHourIsSkippedAndTheLeaseKeepsTwoPassesApart() {
        member("admin", true);
        assertThat(sync().runOnce()).isEqualTo(ForgeSync.Run.RAN);
        assertThat(sync(client(), "replica-b").runOnce()).isEqualTo(ForgeSync.Run.RECENT);

        clock.advance(Duration.ofHours(1));
        JdbiLeaseStore leases = new JdbiLeaseStore(klave.klave().database());
        assertThat(leases.tryAcquire(ForgeSync.LEASE_NAME, "replica-c", clock.instant(), Duration.ofMinutes(10)))
                .isTrue();
        assertThat(sync(client(), "replica-b").runOnce()).isEqualTo(ForgeSync.Run.BUSY);
        leases.release(ForgeSync.LEASE_NAME, "replica-c");
        assertThat(sync(client(), "replica-b").runOnce()).isEqualTo(ForgeSync.Run.RAN);
        assertThat(report().replica()).isEqualTo("replica-b");
    }

    @Test
    void installationTokensAreReusedUntilShortlyBeforeTheyExpire() {
        member("admin", true);
        ForgeClient client = client();
        ForgeSync sync = sync(client, "replica-a");
        sync.runOnce();
        int issued = forge.installationTokensIssued();

        clock.advance(Duration.ofMinutes(51));
        sync.runOnce();
        assertThat(forge.installationTokensIssued()).as("50 minutes left on the token").isEqualTo(issued);

        clock.advance(Duration.ofMinutes(55));
        sync.runOnce();
        assertThat(forge.installationTokensIssued()).as("past its expiry minus the margin").isEqualTo(issued + 1);
    }

    @Test
    void aTokenRevokedByAnUninstallIsDroppedSoAReinstalledAppWorksAtOnce() {
        member("admin", true);
        ForgeClient client = client();
        ForgeSync sync = sync(client, "replica-a");
        assertThat(sync.runOnce()).isEqualTo(ForgeSync.Run.RAN);

        clock.advance(Duration.ofHours(1));
        forge.installed(false);
        sync.runOnce();
        assertThat(report().error()).hasValueSatisfying(error -> assertThat(error).contains("not installed"));

        forge.installed(true);
        clock.advance(Duration.ofHours(1));
        sync.runOnce();
        assertThat(report().error()).as("the revoked token is not tried for the rest of its hour").isEmpty();
    }

    /** A {@link ForgeApi} that passes every call on, for tests that change one of them. */
    private static class Delegating implements ForgeApi {
        private final ForgeApi inner;

        Delegating(ForgeApi inner) {
            this.inner = inner;
        }

        @Override
        public java.net.URI authorizationUrl(String state, java.net.URI redirectUri) {
            return inner.authorizationUrl(state, redirectUri);
        }

        @Override
        public String exchangeCode(String code, java.net.URI redirectUri)
                throws ForgeUnavailableException, CodeRejectedException {
            return inner.exchangeCode(code, redirectUri);
        }

        @Override
        public ForgeUser user(String personToken) throws ForgeUnavailableException {
            return inner.user(personToken);
        }

        @Override
        public Optional<Membership> membership(String login) throws ForgeUnavailableException {
            return inner.membership(login);
        }

        @Override
        public Optional<Boolean> twoFactorRequired() throws ForgeUnavailableException {
            return inner.twoFactorRequired();
        }

        @Override
        public List<ForgeUser> members() throws ForgeUnavailableException {
            return inner.members();
        }

        @Override
        public void installationChanged() {
            inner.installationChanged();
        }
    }
}
