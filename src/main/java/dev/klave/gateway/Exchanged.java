package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** How one in-process call to a cluster ended; each names the Audit-ID of its row. */
public sealed interface Exchanged {
    String auditId();

    /** The cluster answered (any status); the whole answer, at most the exchange's cap. */
    record Answered(String auditId, int status, HttpHeaders headers, byte[] body) implements Exchanged {
        private static final ObjectMapper MAPPER = new ObjectMapper();

        public Answered {
            requireNonNull(auditId, "auditId is null");
            requireNonNull(headers, "headers is null");
            requireNonNull(body, "body is null");
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /**
         * The Kubernetes {@code Status} of a 4xx or 5xx answer (its {@code reason}, {@code message}
         * and {@code code}); empty for a success, or when the body is no Status.
         */
        public Optional<KubeStatus> failure() {
            if (status < 400) {
                return Optional.empty();
            }
            try {
                JsonNode node = MAPPER.readTree(body);
                if (node == null || !"Status".equals(node.path("kind").asText())) {
                    return Optional.empty();
                }
                return Optional.of(new KubeStatus(node.path("code").asInt(status), node.path("reason").asText(""),
                        node.path("message").asText("")));
            } catch (IOException notJson) {
                return Optional.empty();
            }
        }
    }

    /** A Kubernetes {@code Status} failure, as the cluster sent it. */
    record KubeStatus(int code, String reason, String message) {
        public KubeStatus {
            requireNonNull(reason, "reason is null");
            requireNonNull(message, "message is null");
        }
    }

    /** Klave refused the call (admission, a cut, shutdown): nothing of it reached the cluster, or its answer was dropped. */
    record Refused(String auditId, Refusal refusal) implements Exchanged {
        public Refused {
            requireNonNull(auditId, "auditId is null");
            requireNonNull(refusal, "refusal is null");
        }
    }

    /** The cluster could not be reached or its answer not read (spec 1 §7's 502s, or an answer over the cap). */
    record Failed(String auditId, Message message, String text) implements Exchanged {
        public Failed {
            requireNonNull(auditId, "auditId is null");
            requireNonNull(message, "message is null");
            requireNonNull(text, "text is null");
        }
    }
}
