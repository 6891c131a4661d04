package dev.klave.gateway;

/** What the caller means a call to do. */
public enum Intent {
    /** What the request says: a read, or a write that changes the cluster. */
    ACT,
    /**
     * A held write's dry run, shown to a person before approval (spec 3 §4 "Write approval flow"
     * 1): sent only with {@code dryRun=All} on the wire, which the chain checks whatever the
     * transport.
     */
    PREVIEW
}
