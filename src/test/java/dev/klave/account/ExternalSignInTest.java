package dev.klave.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.AccountsWiring;
import dev.klave.audit.ControlEvent;
import dev.klave.audit.ControlEvents;
import dev.klave.config.Settings;
import dev.klave.crypto.Hmac;
import dev.klave.crypto.KeyPurpose;
import dev.klave.crypto.KeyRing;
import dev.klave.crypto.PasswordHasher;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.login.PasswordLogin;
import dev.klave.config.MasterKey;
import dev.klave.login.SignInMethods;
import dev.klave.messages.Refusal;
import dev.klave.store.Database;
import dev.klave.store.JdbiControlEventStore;
import dev.klave.store.JdbiExternalIdentityStore;
import dev.klave.store.JdbiLinkTokenStore;
import dev.klave.store.JdbiLoginFailureStore;
import dev.klave.store.JdbiRateWindowStore;
import dev.klave.store.JdbiSessionStore;
import dev.klave.store.JdbiSubjectStore;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingDatabase;
import dev.klave.testing.TestingPeople;
import dev.klave.testing.TestingSettings;
import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With forge or OIDC sign-in on, only break-glass passwords work (spec 1 §5 "Password login" 3,
 * "Modes"), and the last-administrator rule counts linked and break-glass administrators.
 */
class ExternalSignInTest {
    private static final InetAddress CLIENT = InetAddress.ofLiteral("198.51.100.7");

    private final TestingClock clock = new TestingClock();
    private TestingDatabase fixture;
    private Mode passwordMode;
    private Mode externalMode;
    private SubjectStore subjects;

    /**
     * One sign-in mode over the shared database: accounts as the CLI makes them, links, password
     * sign-in, one's own account, disabling, identities and events — as Klave wires them, without
     * the rest of Klave.
     */
    private record Mode(Accounts accounts, Links links, PasswordLogin passwordLogin, OwnAccount own,
            AccountLifecycle lifecycle, ExternalIdentityStore identities, ControlEvents events) {
        static Mode of(Database database, Settings settings, MasterKey key, SignInMethods methods, Clock clock) {
            SecureRandom random = new SecureRandom();
            SubjectStore subjects = new JdbiSubjectStore(database);
            SecretTokenGenerator tokens = new SecretTokenGenerator(random);
            PasswordHasher hasher = new PasswordHasher(random);
            ControlEvents events = new ControlEvents(new JdbiControlEventStore(database), clock);
            Sessions sessions = new Sessions(new JdbiSessionStore(database), subjects,
                    new Hmac(new KeyRing(key).derive(KeyPurpose.SESSION_COOKIE)), tokens, clock);
            LoginThrottle throttle = new LoginThrottle(new JdbiRateWindowStore(database),
                    new JdbiLoginFailureStore(database), settings.addressGroups(), clock);
            SignInMode mode = methods.mode();
            ExternalIdentityStore identities = new JdbiExternalIdentityStore(database);
            LinkTokenStore links = new JdbiLinkTokenStore(database);
            return new Mode(AccountsWiring.create(database, settings, key, methods, clock, random).accounts(),
                    new Links(database, links, subjects, sessions, hasher, events, mode, AccessEnds.NONE, clock),
                    new PasswordLogin(database, subjects, sessions, hasher, throttle, events, mode),
                    new OwnAccount(database, subjects, sessions, hasher, throttle, events, mode, AccessEnds.NONE, clock),
                    new AccountLifecycle(database, subjects, identities, links, sessions,
                            new LastAdminRule(subjects, identities, mode), events, List.of(), AccessEnds.NONE,
                            subject -> { }, clock),
                    identities, events);
        }
    }

    @BeforeEach
    void setUp() {
        fixture = TestingDatabase.sqlite();
        MasterKey key = MasterKey.parseBase64(TestingSettings.KEY);
        dev.klave.config.Settings settings = TestingSettings.sqliteIn(java.nio.file.Path.of("unused"))
                .with("SERVICE_BASE_URL", "https://klave.example.com").build();
        passwordMode = Mode.of(fixture.database(), settings, key, SignInMethods.PASSWORD_ONLY, clock);
        externalMode = Mode.of(fixture.database(), settings, key, new SignInMethods(true, "acme", false, ""), clock);
        subjects = new JdbiSubjectStore(fixture.database());
    }

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    /** A person who set a password while passwords were the way in. */
    private Subject personWithPassword(String login, boolean admin, boolean breakGlass) {
        String token = TestingPeople.tokenOf(passwordMode.accounts().createPerson(new NewPerson(new Login(login),
                Optional.empty(), Optional.empty(), admin, breakGlass), Optional.empty()).link());
        return passwordMode.links().complete(token, TestingPeople.PASSWORD, CLIENT).subject();
    }

    @Test
    void breakGlassPasswordStillWorks() {
        personWithPassword("root", true, true);

        OpenedSession session = externalMode.passwordLogin().signIn("root", TestingPeople.PASSWORD, CLIENT);

        assertThat(session.subject().login().value()).isEqualTo("root");
    }

    @Test
    void otherPasswordsFailGenericallyAndSayWhyOnlyInTheEvent() {
        personWithPassword("ana", false, false);

        assertThatThrownBy(() -> externalMode.passwordLogin().signIn("ana", TestingPeople.PASSWORD, CLIENT))
                .isInstanceOfSatisfying(Refusal.class, refusal -> assertThat(refusal.status()).isEqualTo(401))
                .hasMessage("usuario o contraseña incorrectos");
        ControlEvent failure = externalMode.events().page(1).events().getFirst();
        assertThat(failure.type()).isEqualTo("login.failure");
        assertThat(failure.reason()).contains("password_disabled");
        assertThat(failure.via()).contains("password");
    }

    @Test
    void anAccountThatNeverHadAPasswordIsAlsoPasswordDisabled() {
        externalMode.accounts().createPerson(new NewPerson(new Login("carla"), Optional.empty(), Optional.empty(),
                false, false), Optional.empty());

        assertThatThrownBy(() -> externalMode.passwordLogin().signIn("carla", "anything at all", CLIENT))
                .hasMessage("usuario o contraseña incorrectos");
        ControlEvent failure = externalMode.events().page(1).events().getFirst();
        assertThat(failure.type()).isEqualTo("login.failure");
        assertThat(failure.reason()).contains("password_disabled");
    }

    @Test
    void theBreakGlassMarkIsNotRemovedFromTheLastAdministratorAbleToSignIn() {
        personWithPassword("root", true, true);

        assertThatThrownBy(() -> externalMode.accounts().setBreakGlass(new Login("root"), false))
                .hasMessage("no se puede quitar ni deshabilitar al último administrador activo");
        assertThat(subjects.findByLogin(new Login("root")).orElseThrow().breakGlass()).isTrue();

        personWithPassword("spare", true, true);
        assertThat(externalMode.accounts().setBreakGlass(new Login("root"), false).breakGlass()).isFalse();
        assertThat(externalMode.events().page(1).events().getFirst().type()).isEqualTo("user.break_glass_removed");
    }

    /**
     * With a provider on, a normal account's password failures count towards the lockout like an
     * unknown login's, so the answers do not tell which logins exist (spec 1 §5 "Password login" 1,
     * 2). The provider's own sign-in ignores the lockout (rule 4):
     * {@code ForgeSignInTest.aLockedPasswordDoesNotStopTheForgeSignIn}.
     */
    @Test
    void passwordDisabledFailuresAreCountedLikeThoseOfAnUnknownLogin() {
        personWithPassword("ana", false, false);
        java.util.Map<String, java.util.List<Integer>> answers = new java.util.LinkedHashMap<>();
        for (String login : java.util.List.of("ana", "nadie")) {
            java.util.List<Integer> statuses = new java.util.ArrayList<>();
            for (int i = 0; i < 6; i++) {
                try {
                    externalMode.passwordLogin().signIn(login, TestingPeople.PASSWORD,
                            InetAddress.ofLiteral("198.51.100." + (10 + login.length())));
                    statuses.add(200);
                } catch (Refusal refusal) {
                    statuses.add(refusal.status());
                }
            }
            answers.put(login, statuses);
        }

        assertThat(answers.get("ana")).containsExactly(401, 401, 401, 401, 401, 429);
        assertThat(answers.get("nadie")).isEqualTo(answers.get("ana"));
    }

    @Test
    void linksOfForgeAccountsLinkInsteadOfSettingPasswords() {
        String token = TestingPeople.tokenOf(externalMode.accounts().createPerson(new NewPerson(new Login("bea"),
                Optional.empty(), Optional.empty(), false, false), Optional.empty()).link());

        assertThat(externalMode.links().lookup(token).forgeRequired()).isTrue();
        assertThatThrownBy(() -> externalMode.links().complete(token, TestingPeople.PASSWORD, CLIENT))
                .isInstanceOfSatisfying(Refusal.class, refusal -> assertThat(refusal.status()).isEqualTo(403))
                .hasMessage("esta cuenta entra con Forge: no usa contraseña");
        assertThat(externalMode.links().lookup(token).forgeRequired()).isTrue();
    }

    @Test
    void forgeAccountsCannotChangeAPassword() {
        Subject ana = personWithPassword("ana", false, false);
        Principal caller = new Principal(ana.id(), ana.login(), false, java.util.Optional.of("session"));

        assertThatThrownBy(() -> externalMode.own().changePassword(caller, TestingPeople.PASSWORD,
                "another long passphrase", CLIENT))
                .isInstanceOfSatisfying(Refusal.class, refusal -> assertThat(refusal.status()).isEqualTo(403))
                .hasMessage("esta cuenta entra con Forge: no usa contraseña");
        assertThat(externalMode.own().canUsePassword(ana)).isFalse();
        assertThat(passwordMode.own().canUsePassword(ana)).isTrue();
    }

    @Test
    void lastAdministratorInExternalModeIsLinkedOrBreakGlass() {
        Subject root = personWithPassword("root", true, false);
        Subject linked = personWithPassword("linked", true, false);
        externalMode.identities().link(new ExternalIdentity(linked.id(), ExternalIdentity.Key.forge(42),
                Optional.of("linked-gh"), Optional.empty(), Instant.parse("2026-11-27T10:00:00Z")));
        Principal actor = new Principal(root.id(), root.login(), true, java.util.Optional.of("session"));

        // root has a password but no forge link: in external mode root cannot sign in, so may go.
        assertThat(externalMode.lifecycle().disable(root.id(), Optional.of(actor), Optional.empty()).enabled()).isFalse();
        assertThatThrownBy(() -> externalMode.lifecycle().disable(linked.id(), Optional.of(actor), Optional.empty()))
                .hasMessage("no se puede quitar ni deshabilitar al último administrador activo");

        Subject glass = personWithPassword("glass", true, true);
        assertThat(externalMode.lifecycle().disable(linked.id(), Optional.of(actor), Optional.empty()).enabled()).isFalse();
        assertThatThrownBy(() -> externalMode.accounts().update(glass.id(),
                new SubjectChanges(Optional.empty(), Optional.empty(), Optional.of(false), Optional.empty()), actor))
                .hasMessage("no se puede quitar ni deshabilitar al último administrador activo");
    }
}
