package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.audit.AuditFilter;
import dev.klave.audit.AuditRow;
import dev.klave.audit.AuditStore;
import dev.klave.kube.KubeNames;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * MCP prompts (issue 43): the common investigations, as the text a person would otherwise type —
 * a pod that crashes, a deployment that does not roll out, who changed an object. Each names the
 * tools to call and in what order; "who changed" also carries the writes Klave's own audit holds
 * on the object, for an agent acting for an administrator (the audit is theirs to read).
 * English: the agent's model reads them.
 */
public final class Prompts {
    /** How far back in the audit "who changed" looks, in rows of the object's kind and namespace. */
    static final int AUDIT_ROWS = 500;
    private static final Set<String> WRITES = Set.of("create", "update", "patch", "delete", "deletecollection");

    /** One argument of a prompt: its name, what it is, and whether it must be a namespace or a name. */
    record Argument(String name, String description, boolean namespace) {}

    /** A prompt: name, title, description, its arguments (all required). */
    record Prompt(String name, String title, String description, List<Argument> arguments) {}

    private static final Argument CLUSTER = new Argument("cluster", "Cluster name, as list_clusters gives it.", false);
    private static final Argument NAMESPACE = new Argument("namespace", "Namespace.", true);

    static final List<Prompt> ALL = List.of(
            new Prompt("crashing_pod", "A pod that keeps crashing", "Find out why a pod restarts or crashes.",
                    List.of(CLUSTER, NAMESPACE, new Argument("pod", "Pod name.", false))),
            new Prompt("stuck_rollout", "A deployment that does not roll out",
                    "Find out why a deployment's new pods do not become ready.",
                    List.of(CLUSTER, NAMESPACE, new Argument("deployment", "Deployment name.", false))),
            new Prompt("who_changed", "Who changed an object", "Who changed an object recently, and how: from "
                    + "Klave's audit (for administrators) and the cluster's events.",
                    List.of(CLUSTER, NAMESPACE, new Argument("resource", "Resource, plural (deployments, "
                            + "configmaps).", false), new Argument("name", "Object name.", false))));

    private final AuditStore audit;

    Prompts(AuditStore audit) {
        this.audit = requireNonNull(audit, "audit is null");
    }

    /** The {@code prompts} of a {@code prompts/list} answer. */
    public ArrayNode describe() {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        for (Prompt prompt : ALL) {
            ObjectNode entry = list.addObject().put("name", prompt.name()).put("title", prompt.title())
                    .put("description", prompt.description());
            ArrayNode arguments = entry.putArray("arguments");
            prompt.arguments().forEach(argument -> arguments.addObject().put("name", argument.name())
                    .put("description", argument.description()).put("required", true));
        }
        return list;
    }

    /**
     * A {@code prompts/get} result; empty when no prompt has that name.
     * @throws IllegalArgumentException naming the argument missing or not a Kubernetes name
     */
    public Optional<ObjectNode> get(String name, JsonNode given, Agent agent) {
        Optional<Prompt> found = ALL.stream().filter(prompt -> prompt.name().equals(name)).findFirst();
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> arguments = new LinkedHashMap<>();
        for (Argument argument : found.get().arguments()) {
            String value = given == null ? "" : given.path(argument.name()).asText("");
            boolean valid = argument.namespace() ? KubeNames.isNamespace(value) : KubeNames.isPathSegment(value)
                    && value.length() <= 253;
            if (!valid) {
                throw new IllegalArgumentException(argument.name());
            }
            arguments.put(argument.name(), value);
        }
        String text = switch (name) {
            case "crashing_pod" -> crashingPod(arguments);
            case "stuck_rollout" -> stuckRollout(arguments);
            default -> whoChanged(arguments, agent);
        };
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        result.put("description", found.get().description());
        ObjectNode message = result.putArray("messages").addObject().put("role", "user");
        message.putObject("content").put("type", "text").put("text", text);
        return Optional.of(result);
    }

    private static String crashingPod(Map<String, String> a) {
        return """
                Pod %s in namespace %s of cluster %s keeps crashing or restarting. Find out why, reading only:
                1. get_resource kind=pod: status.containerStatuses (lastState.terminated reason and exitCode, \
                restartCount, waiting reason such as CrashLoopBackOff, ImagePullBackOff, OOMKilled) and the \
                containers' resources and probes.
                2. get_logs with previous=true for the container that restarted, then without it.
                3. get_events with name=%s.
                Say what the cause is, with the lines that show it, and what would fix it. Change nothing unless \
                the person asks; a write may wait for their approval.""".formatted(a.get("pod"), a.get("namespace"),
                a.get("cluster"), a.get("pod"));
    }

    private static String stuckRollout(Map<String, String> a) {
        return """
                Deployment %s in namespace %s of cluster %s does not finish rolling out. Find out why, reading only:
                1. get_resource kind=deployment: spec.replicas, status (updatedReplicas, readyReplicas, \
                unavailableReplicas) and status.conditions (Progressing with ProgressDeadlineExceeded, Available).
                2. list_resources kind=pods with label_selector set to the deployment's spec.selector.matchLabels; \
                get_resource on a pod that is not ready (containerStatuses, conditions).
                3. get_logs of that pod and get_events with its name and with name=%s.
                Say which condition holds the rollout and why. Change nothing unless the person asks.""".formatted(
                a.get("deployment"), a.get("namespace"), a.get("cluster"), a.get("deployment"));
    }

    private String whoChanged(Map<String, String> a, Agent agent) {
        StringBuilder text = new StringBuilder("Who changed %s/%s in namespace %s of cluster %s, and how?\n"
                .formatted(a.get("resource"), a.get("name"), a.get("namespace"), a.get("cluster")));
        if (!agent.account().admin()) {
            text.append("Klave's audit of other people's requests is for administrators: it is not shown to this "
                    + "agent. Call get_events with name=").append(a.get("name"))
                    .append(", and recent_calls for what this agent itself did.\n");
            return text.toString();
        }
        AuditFilter filter = new AuditFilter(Optional.empty(), Optional.of(a.get("cluster")),
                Optional.of(a.get("namespace")), Optional.empty(), Optional.of(a.get("resource")), Optional.empty(),
                Optional.empty(), Optional.empty(), false);
        List<AuditRow> writes = audit.find(filter, 0, AUDIT_ROWS).stream()
                .filter(row -> WRITES.contains(row.request().verb())
                        && row.request().name().filter(a.get("name")::equals).isPresent())
                .limit(50).toList();
        if (writes.isEmpty()) {
            text.append("Klave's audit holds no write to it in its last ").append(AUDIT_ROWS)
                    .append(" requests on ").append(a.get("resource")).append(" there.\n");
        } else {
            text.append("Klave's audit holds these writes to it, newest first (time, who, verb, status, how):\n");
            for (AuditRow row : writes) {
                AuditRow.Request request = row.request();
                text.append("- ").append(row.at()).append(' ').append(row.actor().subjectLogin().orElse("?"))
                        .append(' ').append(request.verb()).append(' ')
                        .append(row.outcome().map(ended -> String.valueOf(ended.status())).orElse("-"))
                        .append(request.dryRun() == AuditRow.DryRun.ALL ? " (dry run)" : "").append(' ')
                        .append(request.channel().tool().map(tool -> "tool " + tool).orElse("kubectl or API"))
                        .append('\n');
            }
        }
        text.append("Then call get_events with name=").append(a.get("name"))
                .append(" and get_resource to see the object as it is now. Say who changed what, and when.\n");
        return text.toString();
    }
}
