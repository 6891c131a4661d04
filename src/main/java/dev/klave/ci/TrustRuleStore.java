package dev.klave.ci;

import java.util.List;
import java.util.Optional;

/** Where trust rules are kept. */
public interface TrustRuleStore {
    void create(TrustRule rule);

    /** Oldest first, so the first matching rule is always the same one. */
    List<TrustRule> list();

    Optional<TrustRule> findById(String id);

    /** Returns whether a rule was deleted. */
    boolean delete(String id);
}
