package dev.klave.agent.tool;

import static dev.klave.agent.tool.Parameter.flag;
import static dev.klave.agent.tool.Parameter.integer;
import static dev.klave.agent.tool.Parameter.namespace;
import static dev.klave.agent.tool.Parameter.objectName;
import static dev.klave.agent.tool.Parameter.text;

import dev.klave.agent.approval.AccessRequest;
import dev.klave.messages.Message;
import java.util.List;

/**
 * The thirteen tools of spec 3 §4 "Tools", and those issue 43 adds (patch, top, describe,
 * recent_calls): names, descriptions for the model, parameters and
 * annotations (rule 1: read tools are read-only; apply and delete_resource destructive; apply and
 * scale idempotent). Descriptions are in English: they are read by the agent's model.
 */
final class Catalogue {
    // Each parameter once: the tools declare them, their handlers read them (typed) by them.
    static final Parameter<String> CLUSTER = text("cluster", "Cluster name, as list_clusters gives it.").mandatory();
    static final Parameter<String> KIND = text("kind",
            "Kind, plural or short name (Pod, deployments, svc), resolved against the cluster's discovery.").mandatory();
    static final Parameter<String> API_VERSION = text("api_version",
            "Group/version (like apps/v1) to tell apart two kinds with the same name.");
    /** Of the object; required for a namespaced kind, which only the cluster's discovery tells. */
    static final Parameter<String> NAMESPACE = namespace("namespace", "Namespace of the object.");
    static final Parameter<String> IN_NAMESPACE = NAMESPACE.mandatory();
    static final Parameter<String> NAMESPACE_OR_ALL = namespace("namespace", "Namespace; empty for all.");
    static final Parameter<String> NAME = objectName("name", "Name of the object.").mandatory();
    static final Parameter<String> APPROVAL_ID = text("approval_id",
            "Id of a held write (from agent.approval_pending): call again with the same arguments and this id "
                    + "to wait for the person's decision.");
    static final Parameter<String> LABEL_SELECTOR = text("label_selector", "Label selector, like app=web.");
    static final Parameter<String> FIELD_SELECTOR = text("field_selector", "Field selector, like status.phase=Running.");
    static final Parameter<Long> ROWS = integer("limit", "Rows per page.", 1, ReadTools.MAX_ROWS).byDefault(100L);
    static final Parameter<String> CONTINUE = text("continue", "The continue token of the previous page.");
    static final Parameter<String> EVENTS_OF = objectName("name", "Name of the object the events are about.");
    static final Parameter<Long> EVENTS = integer("limit", "Most events to return.", 1, ReadTools.MAX_ROWS)
            .byDefault(100L);
    static final Parameter<String> POD = objectName("pod", "Pod name.").mandatory();
    static final Parameter<String> CONTAINER = text("container", "Container; needed when the pod has several.");
    static final Parameter<Long> TAIL_LINES = integer("tail_lines", "Lines from the end.", 1, ReadTools.MAX_LOG_LINES)
            .byDefault(200L);
    static final Parameter<Long> SINCE_SECONDS = integer("since_seconds", "Only lines of the last N seconds.", 1,
            Integer.MAX_VALUE);
    static final Parameter<Boolean> PREVIOUS = flag("previous",
            "The log of the previous (crashed or restarted) container.");
    static final Parameter<String> MANIFEST = text("manifest", "One object, in YAML or JSON.").mandatory();
    static final Parameter<String> PATCH = text("patch", "The patch: one object, in JSON or YAML (a JSON merge "
            + "patch, RFC 7386: null removes a field; or a strategic merge patch, which merges lists by key).")
            .mandatory();
    static final Parameter<String> PATCH_TYPE = text("patch_type", "merge (the default) or strategic (built-in "
            + "kinds only).");
    static final Parameter<Long> REPLICAS = integer("replicas", "Desired replicas.", 0, Integer.MAX_VALUE).mandatory();
    /** Not a {@link #namespace}: {@code *} asks for the whole cluster. */
    static final Parameter<String> ACCESS_SCOPE = text("namespace", "Namespace, or * for the whole cluster.")
            .mandatory();
    static final Parameter<String> ROLE = text("role", "view, edit or admin.").mandatory();
    static final Parameter<Long> MINUTES = integer("minutes", "How long, 1 to 480.", 1, AccessRequest.MAX_MINUTES)
            .mandatory().refusedWith(Message.AGENT_ACCESS_BAD_MINUTES);
    static final Parameter<String> REASON = text("reason", "Why, for the person (up to 500 characters).").mandatory()
            .atMost(AccessRequest.MAX_REASON).refusedWith(Message.AGENT_ACCESS_REASON);
    static final Parameter<Boolean> NODES = flag("nodes", "Nodes instead of pods.");
    static final Parameter<String> TOP_NAME = objectName("name", "One pod (in namespace) or node only; its "
            + "containers are shown too.");
    static final Parameter<Long> CALLS = integer("limit", "Most requests to return, newest first.", 1,
            OwnCalls.MAX_CALLS).byDefault(20L);
    private static final Tool.Annotations WRITE = new Tool.Annotations(false, false, false);

    private Catalogue() {}

    static List<Tool> tools(AccountTools account, ReadTools read, Describe describe, Top top, WriteTools write,
            OwnCalls own) {
        return List.of(
                new Tool(ToolName.WHOAMI, "Who this agent is: identity, mode, the person acted for, when the "
                        + "credential and session expire, whether writes need a person's approval, and every "
                        + "permission in force (cluster, role, scope, expiry). Call it first.", List.of(),
                        Tool.Annotations.READ, account::whoami),
                new Tool(ToolName.LIST_CLUSTERS, "Clusters where this agent has a permission in force; pass a "
                        + "name as `cluster` to the other tools.", List.of(), Tool.Annotations.READ,
                        account::listClusters),
                new Tool(ToolName.LIST_API_RESOURCES, "Kinds the cluster serves, custom ones included: name, short "
                        + "names, apiVersion, kind, whether namespaced.", List.of(CLUSTER), Tool.Annotations.READ,
                        read::listApiResources),
                new Tool(ToolName.LIST_RESOURCES, "Objects of a kind as a kubectl-style table. An empty namespace "
                        + "lists every namespace (needs a cluster-wide role). Secret values never appear.",
                        List.of(CLUSTER, KIND, API_VERSION, NAMESPACE_OR_ALL, LABEL_SELECTOR, FIELD_SELECTOR, ROWS,
                                CONTINUE),
                        Tool.Annotations.READ, read::listResources),
                new Tool(ToolName.GET_RESOURCE, "One whole object as YAML, without managedFields. Secret values are "
                        + "hidden (use read_secret).", List.of(CLUSTER, KIND, API_VERSION, NAMESPACE, NAME),
                        Tool.Annotations.READ, read::getResource),
                new Tool(ToolName.DESCRIBE, "One object and what explains its state, compactly: conditions; for "
                        + "a pod its containers' states, readiness, restarts and last termination; for a workload "
                        + "its replicas and its pods' states; then the object's events. Use it to find why "
                        + "something is not ready.", List.of(CLUSTER, KIND, API_VERSION, NAMESPACE, NAME),
                        Tool.Annotations.READ, describe::describe),
                new Tool(ToolName.GET_EVENTS, "Events of a namespace, or of one object when name is given.",
                        List.of(CLUSTER, NAMESPACE_OR_ALL, EVENTS_OF, EVENTS),
                        Tool.Annotations.READ, read::getEvents),
                new Tool(ToolName.GET_LOGS, "Last lines of a pod's log; never follows.",
                        List.of(CLUSTER, IN_NAMESPACE, POD, CONTAINER, TAIL_LINES, SINCE_SECONDS, PREVIOUS),
                        Tool.Annotations.READ, read::getLogs),
                new Tool(ToolName.TOP, "CPU and memory in use by pods (a namespace's; empty for every namespace, "
                        + "which needs a cluster-wide role) or by nodes, busiest first, from the metrics API "
                        + "(metrics-server).", List.of(CLUSTER, NAMESPACE_OR_ALL, TOP_NAME, NODES),
                        Tool.Annotations.READ, top::top),
                new Tool(ToolName.READ_SECRET, "Decoded values of a Secret; a non-text value arrives as "
                        + "base64:<data>. Each call is audited.", List.of(CLUSTER, IN_NAMESPACE, NAME),
                        Tool.Annotations.READ, read::readSecret),
                new Tool(ToolName.APPLY, "Create or update one object with server-side apply (field manager "
                        + "service-mcp, never forced); returns the object as stored, Secret values hidden. May wait "
                        + "for a person's approval.", List.of(CLUSTER, MANIFEST, APPROVAL_ID),
                        new Tool.Annotations(false, true, true), write::apply),
                new Tool(ToolName.PATCH, "Change part of one object with a JSON merge patch or a strategic merge "
                        + "patch; returns the object as stored, Secret values hidden. May wait for a person's "
                        + "approval.", List.of(CLUSTER, KIND, API_VERSION, NAMESPACE, NAME, PATCH, PATCH_TYPE,
                                APPROVAL_ID), new Tool.Annotations(false, true, true), write::patch),
                new Tool(ToolName.DELETE_RESOURCE, "Delete one object by name (no selectors, no collections). May "
                        + "wait for a person's approval.", List.of(CLUSTER, KIND, API_VERSION, NAMESPACE, NAME,
                                APPROVAL_ID), new Tool.Annotations(false, true, false), write::delete),
                new Tool(ToolName.SCALE, "Set the replicas of a deployment, statefulset or other scalable object "
                        + "through its scale subresource. May wait for a person's approval.",
                        List.of(CLUSTER, KIND, API_VERSION, NAMESPACE, NAME, REPLICAS, APPROVAL_ID),
                        new Tool.Annotations(false, false, true), write::scale),
                new Tool(ToolName.ROLLOUT_RESTART, "Restart a deployment, statefulset or daemonset (sets the "
                        + "restartedAt annotation of its pod template). May wait for a person's approval.",
                        List.of(CLUSTER, KIND, API_VERSION, NAMESPACE, NAME, APPROVAL_ID), WRITE,
                        write::rolloutRestart),
                new Tool(ToolName.REQUEST_ACCESS, "Ask a person for a role (view, edit or admin) in a namespace "
                        + "(* is the whole cluster) for some minutes. Returns a link to give the person; never "
                        + "waits: the decision shows in whoami.",
                        List.of(CLUSTER, ACCESS_SCOPE, ROLE, MINUTES, REASON),
                        WRITE, account::requestAccess),
                new Tool(ToolName.RECENT_CALLS, "The cluster requests this agent's own tool calls made, newest "
                        + "first, from the audit: time, tool, cluster, verb, object, status and audit id. Use it "
                        + "to say what you did.", List.of(CALLS), Tool.Annotations.READ, own::recentCalls));
    }
}
