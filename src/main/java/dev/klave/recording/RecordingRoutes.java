package dev.klave.recording;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.http.Access;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.RouteProvider;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code /api/recordings} (issue 42, not in the specification): administrators list every recorded
 * session, a person their own; one recording's facts; its asciicast to download or play (each
 * download a {@code recording.view} event). Anyone else's is 404, as if it did not exist.
 */
public final class RecordingRoutes implements RouteProvider {
    private final RecordingLibrary library;
    private final RecordingPolicies policies;
    private final java.util.function.Function<String, dev.klave.account.SubjectId> subjects;

    /** @param subjects the subject a {@code subject} filter names, by its id or its login (as the audit's) */
    public RecordingRoutes(RecordingLibrary library, RecordingPolicies policies,
            java.util.function.Function<String, dev.klave.account.SubjectId> subjects) {
        this.library = requireNonNull(library, "library is null");
        this.policies = requireNonNull(policies, "policies is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
    }

    record PolicyView(String cluster, String policy, boolean stdin) {
        PolicyView(String cluster, ClusterRecording recording) {
            this(cluster, recording.policy().code(), recording.stdin().recorded());
        }
    }

    record FoundView(RecordingView recording, double at, String line) {}

    record PolicyChange(String policy, Optional<Boolean> stdin) {
        PolicyChange {
            stdin = stdin == null ? Optional.empty() : stdin;
        }
    }

    record RecordingView(String id, String subjectId, String subject, String cluster, String namespace, String pod,
            Optional<String> container, String command, boolean tty, boolean stdinRecorded, Instant startedAt,
            Optional<Instant> endedAt, String state, Optional<String> reason, long bytes, int width, int height,
            Optional<Integer> exitCode) {}

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/recordings", Access.SESSION, request -> ApiResponse.ok(
                        library.list(Principal.of(request), filter(request)).stream().map(RecordingRoutes::view)
                                .toList()))
                .get("/api/recordings/search", Access.SESSION, request -> ApiResponse.ok(library.search(
                        Principal.of(request), request.queryParameter("q").orElse("")).stream()
                        .map(found -> new FoundView(view(found.recording()), found.at(), found.line())).toList()))
                .get("/api/recordings/{id}", Access.SESSION, request -> ApiResponse.ok(view(
                        library.find(request.pathParameter("id"), Principal.of(request)))))
                .add("DELETE", "/api/recordings/{id}", Access.ADMIN, request -> {
                    library.delete(request.pathParameter("id"), Principal.of(request));
                    return ApiResponse.noContent();
                })
                .get("/api/clusters/{id}/recording", Access.ADMIN, request -> ApiResponse.ok(new PolicyView(
                        request.pathParameter("id"), policies.find(request.pathParameter("id")))))
                .add("PUT", "/api/clusters/{id}/recording", Access.ADMIN, request -> {
                    PolicyChange body = request.json(PolicyChange.class);
                    return ApiResponse.ok(new PolicyView(request.pathParameter("id"), policies.update(
                            request.pathParameter("id"), body.policy(), body.stdin(), Principal.of(request))));
                })
                .get("/api/recordings/{id}/cast", Access.SESSION, request -> {
                    String id = request.pathParameter("id");
                    String cast = library.cast(id, Principal.of(request));
                    // asciicast's media type (docs.asciinema.org); a download named by the audit id.
                    return ApiResponse.raw("application/x-asciicast", cast.getBytes(StandardCharsets.UTF_8))
                            .withHeader("Content-Disposition", "attachment; filename=\"" + id + ".cast\"");
                });
    }

    /**
     * {@code subject} (an id or a login), {@code cluster}, {@code namespace}, {@code pod}, {@code from},
     * {@code to} (RFC 3339).
     */
    private RecordingStore.Filter filter(dev.klave.http.ApiRequest request) {
        for (String name : request.queryNames()) {
            if (!java.util.Set.of("subject", "cluster", "namespace", "pod", "from", "to").contains(name)) {
                throw dev.klave.messages.Message.QUERY_PARAMETER_UNKNOWN.refusal(name);
            }
        }
        Optional<dev.klave.account.SubjectId> subject = request.queryParameter("subject").map(subjects);
        return new RecordingStore.Filter(subject, request.queryParameter("cluster"),
                request.queryParameter("namespace"), request.queryParameter("pod"), time(request, "from"),
                time(request, "to"));
    }

    private static Optional<Instant> time(dev.klave.http.ApiRequest request, String name) {
        try {
            return request.queryParameter(name).map(text -> java.time.OffsetDateTime.parse(text).toInstant());
        } catch (java.time.format.DateTimeParseException e) {
            throw dev.klave.messages.Message.TIME_INVALID.refusal(name);
        }
    }

    static RecordingView view(Recording recording) {
        Recording.Target target = recording.target();
        Recording.Progress progress = recording.progress();
        Terminal terminal = recording.terminal();
        return new RecordingView(recording.id(), recording.owner().subject().value(), recording.owner().login(),
                target.cluster().value(), target.namespace(), target.pod(), target.container(), target.command(),
                terminal.tty().allocated(), recording.stdin().recorded(), recording.startedAt(), progress.endedAt(),
                progress.state().code(), progress.reason(), progress.bytes(), terminal.size().width(),
                terminal.size().height(), progress.exitCode());
    }
}
