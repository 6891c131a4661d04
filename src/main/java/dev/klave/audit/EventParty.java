package dev.klave.audit;

/**
 * Someone a control event names as its actor or target: a signed-in person, an account. The
 * domain types that can be named implement this, so {@code audit} depends on none of them.
 */
public interface EventParty {
    ControlEvent.SubjectRef eventRef();
}
