package dev.klave.login;

import static java.util.Objects.requireNonNull;

import dev.klave.account.ExternalIdentityStore;
import dev.klave.account.LinkTokenStore;
import dev.klave.account.LoginThrottle;
import dev.klave.account.Sessions;
import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.storage.Transactions;
import dev.klave.storage.UsedStateStore;
import java.time.Clock;

/**
 * What every external sign-in stands on, whichever its provider: the accounts and their identities
 * and links, sessions, the control events, the sign-in throttle, the record of used states, the
 * meters. Built once and shared by the forge's and the OIDC provider's {@link ExternalSignIn}.
 */
public record SignInParts(Transactions transactions, SubjectStore subjects, ExternalIdentityStore identities,
        LinkTokenStore links, Sessions sessions, ControlEvents events, LoginThrottle throttle,
        UsedStateStore usedStates, SecretTokenGenerator random, SignInMeters meters, Clock clock) {
    public SignInParts {
        requireNonNull(transactions, "transactions is null");
        requireNonNull(subjects, "subjects is null");
        requireNonNull(identities, "identities is null");
        requireNonNull(links, "links is null");
        requireNonNull(sessions, "sessions is null");
        requireNonNull(events, "events is null");
        requireNonNull(throttle, "throttle is null");
        requireNonNull(usedStates, "usedStates is null");
        requireNonNull(random, "random is null");
        requireNonNull(meters, "meters is null");
        requireNonNull(clock, "clock is null");
    }
}
