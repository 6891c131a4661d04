package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectStore;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/** Requests as the decision API shows them (field names snake_case, times RFC 3339 UTC). */
final class RequestViews {
    private static final ObjectMapper PREVIEWS = new ObjectMapper();

    private final SubjectStore subjects;
    private final Clock clock;

    RequestViews(SubjectStore subjects, Clock clock) {
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    record SubjectView(String id, String login, String kind) {}

    record WriteView(String kind, String id, String status, String cluster, String namespace, String tool,
            String verb, String resource, String name, SubjectView subject, Instant createdAt, Instant expiresAt,
            Optional<Instant> decidedAt, Optional<String> decidedBy, Optional<Instant> executedAt,
            @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<JsonNode> preview) {}

    /**
     * Spec 3's fields, then issue 41's: where it came from, the approvals it needs and the first one,
     * the deciding comment, and the access it gave — {@code active} while it runs, {@code ended}
     * after (with when, and who ended it early).
     */
    record AccessView(String kind, String id, String status, String cluster, String scope, String role, int minutes,
            String reason, SubjectView subject, Instant createdAt, Instant expiresAt, Optional<Instant> decidedAt,
            Optional<String> decidedBy, Optional<String> grantId, Optional<Instant> grantExpiresAt, String origin,
            Optional<String> eligibleId, int approvalsNeeded, Optional<DecisionView> firstApproval,
            Optional<String> comment, Optional<String> access, Optional<Instant> endedAt, Optional<String> endedBy) {}

    record DecisionView(String by, Instant at, Optional<String> comment) {}

    record Listing(java.util.List<WriteView> writeRequests, java.util.List<AccessView> accessRequests) {}

    /** One write request; {@code withPreview} for the request's own page, not for the list. */
    WriteView write(WriteRequest request, boolean withPreview) {
        return new WriteView("write", request.id(), request.statusAt(clock.instant()).code(),
                request.cluster().value(), request.namespace(), request.tool(), request.verb(), request.resource(),
                request.name(), subject(request.actor().subject()), request.createdAt(), request.expiresAt(),
                request.decidedAt(), request.decidedBy(), request.executedAt(),
                withPreview ? Optional.of(preview(request.preview())) : Optional.empty());
    }

    AccessView access(AccessRequest request) {
        Instant now = clock.instant();
        Course course = request.course();
        Optional<String> access = request.statusAt(now) != AccessStatus.APPROVED ? Optional.empty()
                : Optional.of(request.grantRunsAt(now) ? "active" : "ended");
        Optional<Instant> ended = course.endedAt().or(() -> access.filter("ended"::equals)
                .flatMap(ignored -> request.grantExpiresAt()));
        return new AccessView("access", request.id(), request.statusAt(now).code(),
                request.cluster().value(), request.scope().value(), request.role().code(), request.minutes(),
                request.reason(), subject(request.actor().subject()), request.createdAt(), request.expiresAt(),
                request.decidedAt(), request.decidedBy(), request.grantId(), request.grantExpiresAt(),
                course.origin().code(), course.eligibleId(), course.approvalsNeeded(),
                course.first().map(first -> new DecisionView(first.by(), first.at(), first.comment())),
                course.comment(), access, ended, course.endedBy());
    }

    private SubjectView subject(SubjectId id) {
        Optional<Subject> subject = subjects.findById(id);
        return new SubjectView(id.value(), subject.map(found -> found.login().value()).orElse(""),
                subject.map(found -> found.kind().code()).orElse(""));
    }

    /** The tool made the preview as JSON; should it not parse, the person still sees it, as text. */
    private static JsonNode preview(String text) {
        try {
            return PREVIEWS.readTree(text);
        } catch (JsonProcessingException e) {
            return TextNode.valueOf(text);
        }
    }
}
