package dev.klave.ci;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectKind;
import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.messages.Message;
import dev.klave.messages.Untrusted;
import dev.klave.storage.AlreadyExistsException;
import dev.klave.storage.Transactions;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Administrators' CI trust rules (spec 1 §4 "CI trust rules"). */
public final class TrustRules {
    private static final int MAX_NAME = 200;
    private static final int MAX_TEXT = 255;
    private static final String FULL_REF = "refs/";
    /** What a ref written without {@code refs/} may still start with. */
    private static final List<String> SHORT_KINDS = List.of("heads/", "tags/", "pull/");
    private static final int MAX_SUGGESTION = 100;

    private final Transactions transactions;
    private final TrustRuleStore rules;
    private final SubjectStore subjects;
    private final ControlEvents events;
    private final Clock clock;

    public TrustRules(Transactions transactions, TrustRuleStore rules, SubjectStore subjects, ControlEvents events,
            Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.rules = requireNonNull(rules, "rules is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.events = requireNonNull(events, "events is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * What an administrator sends. The ids arrive as JSON numbers or as strings of digits (the
     * forge's claims carry them as strings, so both are natural to paste).
     */
    public record Draft(String name, String botSubjectId, JsonNode repositoryOwnerId, JsonNode repositoryId,
            Optional<String> ref, Optional<String> environment) {}

    public TrustRule create(Draft draft, Principal caller) {
        String name = Optional.ofNullable(draft.name()).map(String::strip).orElse("");
        if (name.isEmpty() || name.length() > MAX_NAME) {
            throw Message.TRUST_RULE_NAME_INVALID.refusal();
        }
        Subject bot = bot(draft.botSubjectId());
        long ownerId = numericId("repository_owner_id", draft.repositoryOwnerId());
        long repositoryId = numericId("repository_id", draft.repositoryId());
        String ref = ref(draft.ref());
        String environment = text("environment", draft.environment());
        TrustRule rule = new TrustRule(UUID.randomUUID().toString(), name, bot.id(), ownerId, repositoryId, ref,
                environment, clock.instant(), Optional.of(caller.subjectId().value()));
        store(rule, bot, caller);
        return rule;
    }

    /** Stores the rule unless one the same but for its name exists (409, naming it). */
    private void store(TrustRule rule, Subject bot, Principal caller) {
        try {
            transactions.inTransaction(() -> {
                rules.findSame(rule).ifPresent(same -> {
                    throw Message.TRUST_RULE_EXISTS.refusal(same.name());
                });
                rules.create(rule);
                events.event(EventType.CI_TRUST_RULE_CREATE).actor(caller).target(bot)
                        .details(Map.of("rule", rule.id(), "name", rule.name(), "repository_owner_id",
                                Long.toString(rule.repositoryOwnerId()), "repository_id",
                                Long.toString(rule.repositoryId()), "ref", rule.ref(), "environment",
                                rule.environment()))
                        .record();
                return null;
            });
        } catch (AlreadyExistsException e) {
            // The same rule was stored meanwhile by another request (PostgreSQL reads committed
            // rows only), and the unique index refused this one: name the one that won.
            throw rules.findSame(rule).map(same -> Message.TRUST_RULE_EXISTS.refusal(same.name())).orElseThrow(() -> e);
        }
    }

    public List<TrustRule> list() {
        return rules.list();
    }

    /** Deletes the rule; credentials it led to stay valid until they expire or are revoked. */
    public void delete(String id, Principal caller) {
        TrustRule rule = rules.findById(id).orElseThrow(Message.NOT_FOUND::refusal);
        transactions.inTransaction(() -> {
            if (rules.delete(id)) {
                events.event(EventType.CI_TRUST_RULE_DELETE).actor(caller)
                        .details(Map.of("rule", id, "name", rule.name())).record();
            }
            return null;
        });
    }

    private Subject bot(String id) {
        if (id == null || id.isBlank()) {
            throw Message.TRUST_RULE_BOT_REQUIRED.refusal();
        }
        Optional<Subject> subject;
        try {
            subject = subjects.findById(new SubjectId(id.strip()));
        } catch (IllegalArgumentException e) {
            subject = Optional.empty();
        }
        Subject found = subject.orElseThrow(Message.TRUST_RULE_BOT_REQUIRED::refusal);
        if (found.kind() != SubjectKind.BOT) {
            throw Message.TRUST_RULE_NOT_A_BOT.refusal();
        }
        return found;
    }

    private static long numericId(String field, JsonNode value) {
        String digits;
        if (value != null && value.isIntegralNumber()) {
            digits = value.asText();
        } else if (value != null && value.isTextual()) {
            digits = value.textValue().strip();
        } else {
            throw Message.TRUST_RULE_ID_INVALID.refusal(field);
        }
        if (!digits.matches("[0-9]{1,18}") || Long.parseLong(digits) <= 0) {
            throw Message.TRUST_RULE_ID_INVALID.refusal(field);
        }
        return Long.parseLong(digits);
    }

    /**
     * The ref a rule requires, empty for any. Actions' {@code ref} claim is always a full ref
     * ({@code refs/heads/<branch>}, {@code refs/tags/<tag>}, {@code refs/pull/<n>/merge}), so a
     * short one ({@code main}) could never match (spec 1 §4 "CI exchange rules" 2): it is refused
     * with the full form it most likely means.
     */
    private static String ref(Optional<String> value) {
        String ref = text("ref", value);
        if (ref.isEmpty() || ref.startsWith(FULL_REF)) {
            return ref;
        }
        boolean kindGiven = SHORT_KINDS.stream().anyMatch(ref::startsWith);
        String full = FULL_REF + (kindGiven ? "" : "heads/") + ref;
        throw Message.TRUST_RULE_REF_NOT_FULL.refusal(Untrusted.text(full, MAX_SUGGESTION));
    }

    private static String text(String field, Optional<String> value) {
        String text = value.map(String::strip).orElse("");
        if (text.length() > MAX_TEXT) {
            throw Message.TRUST_RULE_TEXT_INVALID.refusal(field);
        }
        return text;
    }
}
