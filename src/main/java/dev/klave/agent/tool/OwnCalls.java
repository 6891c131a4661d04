package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.audit.AuditFilter;
import dev.klave.audit.AuditRow;
import dev.klave.audit.AuditStore;
import dev.klave.audit.Channel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code recent_calls} (issue 43): the cluster requests this agent's own tool calls made, newest
 * first, from Klave's audit — so an agent can say what it did. A bot's are its credential's; a
 * delegated agent's are its session's, never its person's other sessions. Like {@code whoami} it
 * reaches no cluster and leaves no audit row (spec 3 "Tool rules" 3).
 */
final class OwnCalls {
    static final int MAX_CALLS = 100;

    private final AuditStore audit;

    OwnCalls(AuditStore audit) {
        this.audit = requireNonNull(audit, "audit is null");
    }

    ToolResult recentCalls(ToolCall call) throws ToolError {
        Agent agent = call.agent();
        long limit = call.arguments().need(Catalogue.CALLS);
        AuditFilter filter = new AuditFilter(Optional.of(agent.account().id().value()), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), agent.credentialId(), Optional.empty(),
                Optional.empty(), false, Optional.of(Channel.Kind.TOOL), Optional.empty(), agent.session());
        List<AuditRow> rows = audit.find(filter, 0, (int) limit);
        List<List<String>> lines = new ArrayList<>();
        lines.add(List.of("TIME", "TOOL", "CLUSTER", "VERB", "NAMESPACE", "RESOURCE", "STATUS", "AUDIT ID"));
        ArrayNode calls = JsonNodeFactory.instance.arrayNode();
        for (AuditRow row : rows) {
            AuditRow.Request request = row.request();
            Optional<Integer> ended = row.outcome().map(AuditRow.Outcome::status);
            boolean dryRun = request.dryRun() == AuditRow.DryRun.ALL;
            String status = ended.map(String::valueOf).orElse("-") + (dryRun ? " (dry run)" : "");
            String resource = request.resource().orElse("") + request.name().map(name -> "/" + name).orElse("");
            String tool = request.channel().tool().orElse("");
            lines.add(List.of(row.at().toString(), tool, row.cluster(), request.verb(), request.namespace().orElse(""),
                    resource.isEmpty() ? request.path() : resource, status, row.id()));
            ObjectNode entry = calls.addObject().put("at", row.at().toString())
                    .put("tool", tool).put("cluster", row.cluster())
                    .put("verb", request.verb()).put("path", request.path()).put("dry_run", dryRun)
                    .put("audit_id", row.id());
            ended.ifPresent(value -> entry.put("status", value));
        }
        ObjectNode structured = JsonNodeFactory.instance.objectNode();
        structured.set("calls", calls);
        String text = rows.isEmpty() ? "No cluster requests by this agent's tools yet.\n" : Tables.pad(lines);
        return ToolResult.Done.of(Output.cut(text, "ask for fewer with limit"), structured);
    }
}
