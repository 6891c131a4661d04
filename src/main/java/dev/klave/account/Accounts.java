package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.config.BaseUrl;
import dev.klave.crypto.SecretToken;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.crypto.TokenKind;
import dev.klave.messages.Message;
import dev.klave.store.AlreadyExistsException;
import dev.klave.store.Transactions;
import java.time.Clock;
import java.time.Instant;

/** Creating people and marking break-glass accounts (spec 1 §1.8, §5 "Break-glass"). */
public final class Accounts {
    private final Transactions transactions;
    private final SubjectStore subjects;
    private final LinkTokenStore links;
    private final SecretTokenGenerator tokens;
    private final Clock clock;
    private final BaseUrl baseUrl;

    public Accounts(Transactions transactions, SubjectStore subjects, LinkTokenStore links,
            SecretTokenGenerator tokens, Clock clock, BaseUrl baseUrl) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.links = requireNonNull(links, "links is null");
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.baseUrl = requireNonNull(baseUrl, "baseUrl is null");
    }

    /**
     * Creates an enabled person without a password, and their invitation link
     * ({@code {base_url}/cuenta#kli_…}, 72 h, single use). Person and link are written together.
     *
     * @throws dev.klave.messages.Refusal {@code LOGIN_TAKEN} when the login was ever used
     */
    public Invitation createPerson(NewPerson request) {
        Instant now = clock.instant();
        Subject person = Subject.newPerson(request.login(),
                request.displayName().filter(name -> !name.isBlank()).orElse(request.login().value()),
                request.email().filter(email -> !email.isBlank()), request.admin(), request.breakGlass(), now);
        SecretToken token = tokens.generate(TokenKind.LINK);
        LinkToken link = LinkToken.pending(token.hash(), person.id(), LinkPurpose.INVITATION, now);
        try {
            transactions.inTransaction(() -> {
                if (subjects.findByLogin(request.login()).isPresent()) {
                    throw Message.LOGIN_TAKEN.refusal();
                }
                subjects.create(person);
                links.create(link);
                return null;
            });
        } catch (AlreadyExistsException e) {
            // Another writer took the login between the check and the insert.
            throw Message.LOGIN_TAKEN.refusal();
        }
        // The token travels in the fragment so that it never reaches a server log (spec 1 §2).
        return new Invitation(person, baseUrl.resolve("/cuenta") + "#" + token.reveal(), link.expiresAt());
    }

    /**
     * Marks the account as break-glass: its password keeps working when forge or OIDC sign-in is
     * on. Only the CLI calls this; no API route reaches it (spec 1 §2).
     *
     * @throws dev.klave.messages.Refusal {@code USER_NOT_FOUND} when no account has this login
     */
    public Subject setBreakGlass(Login login) {
        return transactions.inTransaction(() -> {
            Subject subject = subjects.findByLogin(login).orElseThrow(Message.USER_NOT_FOUND::refusal);
            if (subject.kind() != SubjectKind.PERSON) {
                throw Message.BREAK_GLASS_PEOPLE_ONLY.refusal();
            }
            return subjects.update(subject.id(), current -> current.withBreakGlass(true));
        });
    }
}
