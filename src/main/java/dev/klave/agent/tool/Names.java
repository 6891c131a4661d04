package dev.klave.agent.tool;

import dev.klave.kube.KubeNames;
import dev.klave.messages.Text;
import java.util.Optional;

/**
 * Tool arguments that become segments of an API path, checked by their Kubernetes rules before
 * anything is sent: a refusal names the argument and comes back in the tool's result (spec 3 §7),
 * never as an HTTP error. What passes is encoded once by the path ({@code kube.ClusterPath}).
 */
final class Names {
    private Names() {}

    /** A required namespace. */
    static String namespace(Arguments arguments, String parameter) throws ToolError {
        return namespace(parameter, arguments.need(parameter));
    }

    /** An optional namespace: empty when absent. */
    static Optional<String> optionalNamespace(Arguments arguments, String parameter) throws ToolError {
        Optional<String> value = arguments.text(parameter);
        if (value.isPresent()) {
            namespace(parameter, value.get());
        }
        return value;
    }

    static String namespace(String parameter, String value) throws ToolError {
        if (!KubeNames.isNamespace(value)) {
            throw ToolError.argument(parameter, Text.ARGUMENT_NOT_NAMESPACE.text());
        }
        return value;
    }

    /** A required object name. */
    static String name(Arguments arguments, String parameter) throws ToolError {
        return name(parameter, arguments.need(parameter));
    }

    /** An optional object name: empty when absent. */
    static Optional<String> optionalName(Arguments arguments, String parameter) throws ToolError {
        Optional<String> value = arguments.text(parameter);
        if (value.isPresent()) {
            name(parameter, value.get());
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
