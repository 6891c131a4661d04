package dev.klave.recording;

import static java.util.Objects.requireNonNull;

import dev.klave.kube.Query;
import java.util.List;
import java.util.Optional;

/**
 * What a request to a cluster opens, read from its parsed path the way the API server routes it
 * and, behind {@code nodes/<node>/proxy}, the way the kubelet does (issue 51): a session Klave
 * records, a port-forward relayed as data, or something else. Classified from the decoded segments,
 * never from a string match: the API server's routes are exact and case-sensitive, so
 * {@code pods/<pod>/EXEC} or {@code /apis/v1/…/exec} are no exec — and, under {@code required},
 * not relayed either, because anything not {@link Recorded} or {@link Data} is {@link Unknown}.
 *
 * <p>The routes: {@code /api/v1/namespaces/<ns>/pods/<pod>/exec|attach|portforward} (the core
 * group's pod subresources), and the kubelet's {@code /exec|attach|run/<ns>/<pod>[/<uid>]/<container>}
 * and {@code /portForward/<ns>/<pod>[/<uid>]} reached through {@code /api/v1/nodes/<node>/proxy/…}.
 */
public sealed interface SessionRequest {
    /** A session whose terminal Klave records. */
    record Recorded(String kind, String namespace, String pod, Optional<String> container, String command,
            Terminal.Tty tty, Optional<String> node) implements SessionRequest {
        public Recorded {
            requireNonNull(kind, "kind is null");
            requireNonNull(namespace, "namespace is null");
            requireNonNull(pod, "pod is null");
            requireNonNull(container, "container is null");
            requireNonNull(command, "command is null");
            requireNonNull(tty, "tty is null");
            requireNonNull(node, "node is null");
        }
    }

    /** A port-forward: bytes of the pod's ports, relayed and audited, never a terminal. */
    record Data() implements SessionRequest {}

    /** Anything else: relayed as it is, except where recording is required. */
    record Unknown() implements SessionRequest {}

    /** Reads {@code segments} (decoded) and {@code query} as the API server and the kubelet would. */
    static SessionRequest of(List<String> segments, Query query) {
        requireNonNull(segments, "segments is null");
        requireNonNull(query, "query is null");
        if (segments.size() < 4 || !segments.get(0).equals("api") || !segments.get(1).equals("v1")) {
            return new Unknown();
        }
        if (segments.size() == 7 && segments.get(2).equals("namespaces") && segments.get(4).equals("pods")) {
            String namespace = segments.get(3);
            String pod = segments.get(5);
            return switch (segments.get(6)) {
                case "exec" -> new Recorded("exec", namespace, pod, query.first("container"),
                        String.join(" ", query.all("command")), tty(query), Optional.empty());
                case "attach" -> new Recorded("attach", namespace, pod, query.first("container"), "attach", tty(query),
                        Optional.empty());
                case "portforward" -> new Data();
                default -> new Unknown();
            };
        }
        if (segments.size() >= 6 && segments.get(2).equals("nodes") && segments.get(4).equals("proxy")) {
            return kubelet(segments.get(3), segments.subList(5, segments.size()), query);
        }
        return new Unknown();
    }

    /** The kubelet's own routes (its server's exec, attach, run and portForward), behind the node proxy. */
    private static SessionRequest kubelet(String node, List<String> path, Query query) {
        String action = path.get(0);
        List<String> rest = path.subList(1, path.size());
        if (action.equals("portForward") && (rest.size() == 2 || rest.size() == 3)) {
            return new Data();
        }
        if (rest.size() != 3 && rest.size() != 4) {
            return new Unknown();
        }
        String namespace = rest.get(0);
        String pod = rest.get(1);
        Optional<String> container = Optional.of(rest.get(rest.size() - 1));
        return switch (action) {
            case "exec" -> new Recorded("exec", namespace, pod, container, String.join(" ", query.all("command")),
                    tty(query), Optional.of(node));
            case "attach" -> new Recorded("attach", namespace, pod, container, "attach", tty(query), Optional.of(node));
            // The kubelet's run takes its command as one "cmd" parameter, split on spaces.
            case "run" -> new Recorded("run", namespace, pod, container, query.first("cmd").orElse(""),
                    Terminal.Tty.NONE, Optional.of(node));
            default -> new Unknown();
        };
    }

    /** The API server reads {@code tty=true}, the kubelet {@code tty=1}. */
    private static Terminal.Tty tty(Query query) {
        return Terminal.Tty.of(query.first("tty").map(value -> value.equalsIgnoreCase("true") || value.equals("1"))
                .orElse(false));
    }
}
