package dev.klave.kube;

import java.util.regex.Pattern;

/**
 * The Kubernetes rules a value must meet to be one segment of an API path. Checked where the
 * value enters (a tool's argument, discovery's answer), so a refusal names the argument; {@link
 * ClusterPath} checks every segment again, whatever built it.
 */
public final class KubeNames {
    /** RFC 1123 label, as Kubernetes reads it for namespaces ({@code IsDNS1123Label}). */
    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    /** RFC 1123 subdomain ({@code IsDNS1123Subdomain}): API groups, resource names of discovery. */
    private static final Pattern SUBDOMAIN = Pattern.compile(
            "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    static final int MAX_LABEL = 63;
    static final int MAX_SUBDOMAIN = 253;
    /** Longer than any object name the API server stores (253), with room for odd resources' names. */
    static final int MAX_SEGMENT = 1024;

    private KubeNames() {}

    /** A namespace's name: an RFC 1123 label of at most 63 characters. */
    public static boolean isNamespace(String value) {
        return value != null && value.length() <= MAX_LABEL && LABEL.matcher(value).matches();
    }

    /** An API version ({@code v1}, {@code v1beta1}): an RFC 1123 label. */
    public static boolean isVersion(String value) {
        return isNamespace(value);
    }

    /** An API group or a resource's plural as discovery names them: an RFC 1123 subdomain. */
    public static boolean isGroupOrResource(String value) {
        return value != null && value.length() <= MAX_SUBDOMAIN && SUBDOMAIN.matcher(value).matches();
    }

    /** Text with no lone surrogate: it has a UTF-8 form, so it is encoded and read back the same. */
    public static boolean wellFormed(String value) {
        for (int i = 0; i < value.length(); ) {
            int c = value.codePointAt(i);
            if (Character.getType(c) == Character.SURROGATE) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }

    /**
     * An object's name as a path segment: what the API server admits in any resource's path
     * ({@code ValidatePathSegmentName}: not empty, not {@code .} or {@code ..}, no {@code /} or
     * {@code %}), and, Klave's own rule, no control character. Most kinds are stricter (an RFC 1123
     * subdomain), which the cluster enforces; a name such as {@code web#} or {@code a?x=} passes
     * here and is encoded, so the cluster reads exactly that name and answers it does not exist.
     */
    public static boolean isPathSegment(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_SEGMENT || value.equals(".")
                || value.equals("..")) {
            return false;
        }
        for (int i = 0; i < value.length(); ) {
            int c = value.codePointAt(i);
            // A lone surrogate has no UTF-8 form: it could not be encoded once and read back the same.
            if (c == '/' || c == '%' || Character.isISOControl(c) || Character.getType(c) == Character.SURROGATE) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }
}
