package dev.klave.ci;

import java.util.List;
import java.util.Optional;

/** Where trust rules are kept. */
public interface TrustRuleStore {
    /**
     * @throws dev.klave.storage.AlreadyExistsException when a rule with the same bot, repository
     *     ids, ref and environment was stored meanwhile (see {@link #findSame})
     */
    void create(TrustRule rule);

    /** The oldest rule with the bot, repository ids, ref and environment of {@code rule}, whatever its name. */
    Optional<TrustRule> findSame(TrustRule rule);

    /** Oldest first, so the first matching rule is always the same one. */
    List<TrustRule> list();

    Optional<TrustRule> findById(String id);

    /** Returns whether a rule was deleted. */
    boolean delete(String id);
}
