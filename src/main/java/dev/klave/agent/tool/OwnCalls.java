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
            String status = row.status().map(String::valueOf).orElse("-") + (row.dryRun() ? " (dry run)" : "");
            String resource = row.resource().orElse("") + row.name().map(name -> "/" + name).orElse("");
            lines.add(List.of(row.at().toString(), row.channel().tool().orElse(""), row.clusterId(), row.verb(),
                    row.namespace().orElse(""), resource.isEmpty() ? row.path() : resource, status, row.id()));
            ObjectNode entry = calls.addObject().put("at", row.at().toString())
                    .put("tool", row.channel().tool().orElse("")).put("cluster", row.clusterId())
                    .put("verb", row.verb()).put("path", row.path()).put("dry_run", row.dryRun())
                    .put("audit_id", row.id());
            row.status().ifPresent(value -> entry.put("status", value));
        }
        ObjectNode structured = JsonNodeFactory.instance.objectNode();
        structured.set("calls", calls);
        String text = rows.isEmpty() ? "No cluster requests by this agent's tools yet.\n" : Tables.pad(lines);
        return ToolResult.Done.of(Output.cut(text, "ask for fewer with limit"), structured);
    }
}
