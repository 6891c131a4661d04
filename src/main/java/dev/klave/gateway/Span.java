package dev.klave.gateway;

/**
 * How long a call may stay open, which decides its connection pool, whether it takes one of its
 * credential's stream places, and whether its duration is a latency worth timing.
 */
public enum Span {
    /** Answered, then over: within the request timeout. */
    BRIEF,
    /**
     * A watch, a followed log, or an upgraded exec, attach or port-forward: it may stay silent for
     * hours, is held among the open calls and cut the moment its access ends.
     */
    LONG_LIVED
}
