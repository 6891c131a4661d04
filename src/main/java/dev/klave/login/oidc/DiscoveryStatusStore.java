package dev.klave.login.oidc;

import java.time.Instant;
import java.util.Optional;

/** The discovery status, one row per issuer, written by whichever replica fetched. */
public interface DiscoveryStatusStore {
    Optional<DiscoveryStatus> find(String issuer);

    void fetched(String issuer, Instant at);

    void failed(String issuer, Instant at, String error);
}
