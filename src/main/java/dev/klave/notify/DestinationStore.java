package dev.klave.notify;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Storage of webhook destinations (their address and secret sealed by the store's caller). */
public interface DestinationStore {
    void create(Destination destination);

    Optional<Destination> findById(String id);

    List<Destination> all();

    boolean delete(String id);

    /** Records an attempt's outcome: a success clears {@code failing_since}, a failure sets it if unset. */
    void attempted(String id, Instant at, Optional<Integer> status, Optional<String> error, boolean delivered);
}
