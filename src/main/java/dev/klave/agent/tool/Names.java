package dev.klave.agent.tool;

import dev.klave.kube.KubeNames;
import dev.klave.messages.Text;

/**
 * Values from a manifest that become segments of an API path, checked by their Kubernetes rules
 * before anything is sent (a tool's own arguments are checked as declared, {@link Parameter}): a refusal names the argument and comes back in the tool's result (spec 3 §7),
 * never as an HTTP error. What passes is encoded once by the path ({@code kube.ClusterPath}).
 */
final class Names {
    private Names() {}

    static String namespace(String parameter, String value) throws ToolError {
        if (!KubeNames.isNamespace(value)) {
            throw ToolError.argument(parameter, Text.ARGUMENT_NOT_NAMESPACE.text());
        }
        return value;
    }

    static String name(String parameter, String value) throws ToolError {
        if (!KubeNames.isPathSegment(value)) {
            throw ToolError.argument(parameter, Text.ARGUMENT_NOT_NAME.text());
        }
        return value;
    }

    /**
     * A value inside a field selector: {@code \}, {@code ,} and {@code =} escaped as the API server
     * reads them ({@code fields.EscapeValue}), so a name cannot add a requirement of its own.
     */
    static String selectorValue(String value) {
        return value.replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=");
    }
}
