package dev.klave.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.AccountsWiring;
import dev.klave.config.MasterKey;
import dev.klave.crypto.SecretToken;
import dev.klave.crypto.TokenKind;
import dev.klave.login.SignInMethods;
import dev.klave.messages.Refusal;
import dev.klave.store.JdbiLinkTokenStore;
import dev.klave.store.JdbiSubjectStore;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingDatabase;
import dev.klave.testing.TestingSettings;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AccountsTest {
    private final TestingClock clock = new TestingClock();
    private TestingDatabase fixture;
    private SubjectStore subjects;
    private LinkTokenStore links;
    private Accounts accounts;

    @BeforeEach
    void setUp() {
        fixture = TestingDatabase.sqlite();
        subjects = new JdbiSubjectStore(fixture.database());
        links = new JdbiLinkTokenStore(fixture.database());
        accounts = AccountsWiring.create(fixture.database(), TestingSettings.sqliteIn(java.nio.file.Path.of("unused"))
                .with("SERVICE_BASE_URL", "https://klave.example.com/").build(),
                MasterKey.parseBase64(TestingSettings.KEY), SignInMethods.PASSWORD_ONLY, clock, new SecureRandom())
                .accounts();
    }

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    private static NewPerson person(String login, boolean admin, boolean breakGlass) {
        return new NewPerson(new Login(login), Optional.empty(), Optional.empty(), admin, breakGlass);
    }

    @Test
    void newPersonGetsAnInvitationLinkInTheFragmentValidFor72Hours() {
        IssuedLink invitation = accounts.createPerson(new NewPerson(new Login("ana"), Optional.of("Ana Pérez"),
                Optional.of("ana@example.com"), true, false), Optional.empty());

        assertThat(invitation.link()).matches("https://klave\\.example\\.com/cuenta#kli_[A-Za-z0-9_-]{43}");
        assertThat(invitation.expiresAt()).isEqualTo(clock.instant().plus(Duration.ofHours(72)));
        Subject stored = subjects.findByLogin(new Login("ana")).orElseThrow();
        assertThat(stored.kind()).isEqualTo(SubjectKind.PERSON);
        assertThat(stored.displayName()).isEqualTo("Ana Pérez");
        assertThat(stored.email()).contains("ana@example.com");
        assertThat(stored.admin()).isTrue();
        assertThat(stored.enabled()).isTrue();
        assertThat(stored.passwordHash()).isEmpty();
    }

    @Test
    void onlyTheHashOfTheInvitationTokenIsStored() {
        IssuedLink invitation = accounts.createPerson(person("bea", false, false), Optional.empty());
        String token = invitation.link().substring(invitation.link().indexOf('#') + 1);

        LinkToken stored = links.findByHash(SecretToken.parse(TokenKind.LINK, token).orElseThrow().hash())
                .orElseThrow();
        assertThat(stored.purpose()).isEqualTo(LinkPurpose.INVITATION);
        assertThat(stored.subjectId()).isEqualTo(invitation.subject().id());
        assertThat(stored.usableAt(clock.instant().plus(Duration.ofHours(71)))).isTrue();
        assertThat(stored.usableAt(clock.instant().plus(Duration.ofHours(72)))).isFalse();
        String everything = fixture.database().withHandle(AccountsTest::dumpLinkTable);
        assertThat(everything).doesNotContain(token).doesNotContain(token.substring(4));
    }

    @Test
    void displayNameDefaultsToTheLogin() {
        assertThat(accounts.createPerson(person("carla", false, false), Optional.empty()).subject().displayName()).isEqualTo("carla");
    }

    @Test
    void loginIsNeverReusedEvenAfterTheAccountIsDisabled() {
        Subject first = accounts.createPerson(person("dario", false, false), Optional.empty()).subject();
        subjects.update(first.id(), subject -> subject.withDisabledAt(Optional.of(clock.instant())));

        assertThatThrownBy(() -> accounts.createPerson(person("dario", true, false), Optional.empty()))
                .isInstanceOfSatisfying(Refusal.class, refusal -> assertThat(refusal.status()).isEqualTo(409))
                .hasMessage("ese login ya existe (los logins no se reutilizan)");
        assertThat(subjects.list()).hasSize(1);
    }

    @Test
    void breakGlassMarkIsSetOnAnExistingPerson() {
        accounts.createPerson(person("elena", true, false), Optional.empty());

        Subject marked = accounts.setBreakGlass(new Login("elena"));

        assertThat(marked.breakGlass()).isTrue();
        assertThat(subjects.findByLogin(new Login("elena")).orElseThrow().breakGlass()).isTrue();
    }

    @Test
    void breakGlassCanBeSetAtCreation() {
        assertThat(accounts.createPerson(person("fede", true, true), Optional.empty()).subject().breakGlass()).isTrue();
    }

    @Test
    void breakGlassOfAnUnknownLoginIsRefused() {
        assertThatThrownBy(() -> accounts.setBreakGlass(new Login("nadie")))
                .isInstanceOf(Refusal.class)
                .hasMessage("usuario no encontrado");
    }

    @Test
    void botsCannotBeBreakGlass() {
        Subject bot = new Subject(SubjectId.random(), new Login("deployer"), SubjectKind.BOT, "Deployer",
                Optional.empty(), false, false, Optional.empty(), Optional.empty(), clock.instant(), false);
        subjects.create(bot);

        assertThatThrownBy(() -> accounts.setBreakGlass(new Login("deployer")))
                .isInstanceOf(Refusal.class)
                .hasMessage("solo una persona puede ser break-glass: los bots no tienen contraseña");
        assertThat(subjects.findById(bot.id()).orElseThrow().breakGlass()).isFalse();
    }

    @Test
    void onlyABotsWritesCanNeedApproval() {
        Subject person = Subject.newPerson(new Login("hugo"), "Hugo", Optional.empty(), false, false, clock.instant());

        assertThatThrownBy(() -> person.withWritesNeedApproval(true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("only a bot's writes can need approval");
    }

    private static String dumpLinkTable(Handle handle) {
        return handle.createQuery("SELECT * FROM link_tokens").mapToMap().list().toString();
    }
}
