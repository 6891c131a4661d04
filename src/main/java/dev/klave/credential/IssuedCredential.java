package dev.klave.credential;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.ClusterId;
import java.util.List;

/** A credential just issued, with its token and kubeconfig: shown once, never stored in clear. */
public record IssuedCredential(Credential credential, String token, String kubeconfig, List<ClusterId> clusters) {
    public IssuedCredential {
        requireNonNull(credential, "credential is null");
        requireNonNull(token, "token is null");
        requireNonNull(kubeconfig, "kubeconfig is null");
        clusters = List.copyOf(clusters);
    }

    @Override
    public String toString() {
        return "IssuedCredential[" + credential.id() + ", token=[redacted]]";
    }
}
