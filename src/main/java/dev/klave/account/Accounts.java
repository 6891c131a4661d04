package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.audit.Via;
import dev.klave.config.BaseUrl;
import dev.klave.crypto.SecretToken;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.crypto.TokenKind;
import dev.klave.messages.Message;
import dev.klave.storage.AlreadyExistsException;
import dev.klave.storage.Transactions;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Creating and changing accounts (spec 1 §4 "Subjects", §1.8 CLI). Every change is one
 * transaction together with its control event; {@code actor} is empty when the CLI acts.
 */
public final class Accounts {
    private final Transactions transactions;
    private final SubjectStore subjects;
    private final LinkTokenStore links;
    private final Sessions sessions;
    private final LastAdminRule lastAdmin;
    private final ControlEvents events;
    private final SecretTokenGenerator tokens;
    private final Clock clock;
    private final BaseUrl baseUrl;

    public Accounts(Transactions transactions, SubjectStore subjects, LinkTokenStore links, Sessions sessions,
            LastAdminRule lastAdmin, ControlEvents events, SecretTokenGenerator tokens, Clock clock, BaseUrl baseUrl) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.links = requireNonNull(links, "links is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.lastAdmin = requireNonNull(lastAdmin, "lastAdmin is null");
        this.events = requireNonNull(events, "events is null");
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.baseUrl = requireNonNull(baseUrl, "baseUrl is null");
    }

    public List<Subject> list() {
        return subjects.list();
    }

    /** Up to {@code limit} subjects matching {@code filter}, by login, after {@code after}. */
    public List<Subject> list(SubjectFilter filter, Optional<Login> after, int limit) {
        return subjects.list(filter, after, limit);
    }

    /** The subjects {@code ids} name, by login; ids that name none are left out. */
    public List<Subject> byIds(List<SubjectId> ids) {
        return subjects.findByIds(ids);
    }

    public Subject get(SubjectId id) {
        return subjects.findById(id).orElseThrow(Message.USER_NOT_FOUND::refusal);
    }

    /**
     * Creates an enabled person without a password, and their invitation link
     * ({@code {base_url}/cuenta#kli_…}, 72 h, single use), together.
     *
     * @throws dev.klave.messages.Refusal {@code LOGIN_TAKEN} when the login was ever used
     */
    public IssuedLink createPerson(NewPerson request, Optional<Principal> actor) {
        Instant now = clock.instant();
        Subject person = Subject.newPerson(request.login(),
                Fields.displayName(request.displayName().filter(name -> !name.isBlank()).orElse(request.login().value())),
                request.email().flatMap(Fields::email), request.admin(), request.breakGlass(), now);
        return transactions.inTransaction(() -> {
            insert(person);
            IssuedLink link = newLink(person, LinkPurpose.INVITATION, now);
            events.event(EventType.USER_CREATE).actor(actor).target(person).via(actor.isPresent() ? Via.API : Via.CLI)
                    .details(Map.of("is_admin", String.valueOf(person.admin()),
                            "break_glass", String.valueOf(person.breakGlass())))
                    .record();
            return link;
        });
    }

    /** Creates a bot: no password, no e-mail, no session; only credentials will let it in. */
    public Subject createBot(Login login, Optional<String> displayName, Principal actor) {
        Subject bot = new Subject(SubjectId.random(), login, SubjectKind.BOT,
                Fields.displayName(displayName.filter(name -> !name.isBlank()).orElse(login.value())),
                Optional.empty(), false, false, Optional.empty(), Optional.empty(), clock.instant(), false);
        return transactions.inTransaction(() -> {
            insert(bot);
            events.event(EventType.BOT_CREATE).actor(actor).target(bot).record();
            return bot;
        });
    }

    private void insert(Subject subject) {
        if (subjects.findByLogin(subject.login()).isPresent()) {
            throw Message.LOGIN_TAKEN.refusal();
        }
        try {
            subjects.create(subject);
        } catch (AlreadyExistsException e) {
            // Another writer took the login between the check and the insert.
            throw Message.LOGIN_TAKEN.refusal();
        }
    }

    /**
     * Changes name, e-mail and administrator role, and a bot's writes-need-approval setting. Bots
     * have neither e-mail nor role, people no such setting; taking the role from the last
     * administrator able to sign in is refused (409).
     */
    public Subject update(SubjectId id, SubjectChanges changes, Principal actor) {
        return transactions.inTransaction(() -> {
            Subject current = get(id);
            if (current.kind() == SubjectKind.BOT && (changes.email().isPresent() || changes.admin().isPresent())) {
                throw Message.BOT_FIELDS.refusal();
            }
            if (current.kind() != SubjectKind.BOT && changes.writesNeedApproval().isPresent()) {
                throw Message.WRITES_APPROVAL_BOTS_ONLY.refusal();
            }
            Subject changed = lastAdmin.check(current, subject -> {
                Subject result = subject;
                if (changes.displayName().isPresent()) {
                    result = result.withDisplayName(Fields.displayName(changes.displayName().get()));
                }
                if (changes.email().isPresent()) {
                    result = result.withEmail(Fields.email(changes.email().get()));
                }
                if (changes.admin().isPresent()) {
                    result = result.withAdmin(changes.admin().get());
                }
                if (changes.writesNeedApproval().isPresent()) {
                    result = result.withWritesNeedApproval(changes.writesNeedApproval().get());
                }
                return result;
            });
            Subject stored = subjects.update(id, ignored -> changed);
            events.event(EventType.USER_UPDATE).actor(actor).target(stored).details(updateDetails(stored)).record();
            return stored;
        });
    }

    /** What a change leaves: the role, and a bot's writes-need-approval setting (spec 3 §4). */
    private static Map<String, String> updateDetails(Subject stored) {
        if (stored.kind() == SubjectKind.BOT) {
            return Map.of("is_admin", String.valueOf(stored.admin()),
                    "writes_need_approval", String.valueOf(stored.writesNeedApproval()));
        }
        return Map.of("is_admin", String.valueOf(stored.admin()));
    }

    /**
     * A new reset link (24 h). Pending links of the person are revoked and their sessions closed
     * at once (spec 1 §4); refused for a disabled account or a bot.
     */
    public IssuedLink resetLink(SubjectId id, Principal actor) {
        Instant now = clock.instant();
        return transactions.inTransaction(() -> {
            Subject subject = get(id);
            if (subject.kind() != SubjectKind.PERSON) {
                throw Message.NOT_A_PERSON.refusal();
            }
            if (!subject.enabled()) {
                throw Message.ACCOUNT_DISABLED_CONFLICT.refusal();
            }
            links.revokePending(subject.id(), now);
            sessions.closeAll(subject.id());
            IssuedLink link = newLink(subject, LinkPurpose.RESET, now);
            events.event(EventType.USER_RESET_LINK).actor(actor).target(subject).record();
            return link;
        });
    }

    private IssuedLink newLink(Subject subject, LinkPurpose purpose, Instant now) {
        SecretToken token = tokens.generate(TokenKind.LINK);
        LinkToken stored = LinkToken.pending(token.hash(), subject.id(), purpose, now);
        links.create(stored);
        // The token travels in the fragment so that it never reaches a server log (spec 1 §2).
        return new IssuedLink(subject, baseUrl.resolve("/cuenta") + "#" + token.reveal(), stored.expiresAt());
    }

    /**
     * Marks the account as break-glass: its password keeps working when forge or OIDC sign-in is
     * on. Only the CLI calls this; no API route reaches it (spec 1 §2).
     *
     * @throws dev.klave.messages.Refusal {@code USER_NOT_FOUND} when no account has this login
     */
    public Subject setBreakGlass(Login login) {
        return setBreakGlass(login, true);
    }

    /**
     * Sets or removes the break-glass mark. Removing it is refused when the account is the last
     * administrator able to sign in (spec 1 §5 "Break-glass").
     *
     * @throws dev.klave.messages.Refusal {@code USER_NOT_FOUND}, {@code BREAK_GLASS_PEOPLE_ONLY},
     *     {@code LAST_ADMIN}
     */
    public Subject setBreakGlass(Login login, boolean mark) {
        return transactions.inTransaction(() -> {
            Subject subject = subjects.findByLogin(login).orElseThrow(Message.USER_NOT_FOUND::refusal);
            if (subject.kind() != SubjectKind.PERSON) {
                throw Message.BREAK_GLASS_PEOPLE_ONLY.refusal();
            }
            lastAdmin.check(subject, current -> current.withBreakGlass(mark));
            Subject changed = subjects.update(subject.id(), current -> current.withBreakGlass(mark));
            events.event(mark ? EventType.USER_BREAK_GLASS : EventType.USER_BREAK_GLASS_REMOVED).target(changed)
                    .via(Via.CLI).record();
            return changed;
        });
    }
}
