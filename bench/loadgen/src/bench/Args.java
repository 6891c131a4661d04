package bench;

import java.util.HashMap;
import java.util.Map;

/** {@code --name value} pairs; every value has a default so commands stay short in bench/run. */
final class Args {
    private final Map<String, String> values = new HashMap<>();

    Args(String[] arguments, int from) {
        for (int i = from; i + 1 < arguments.length; i += 2) {
            if (!arguments[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value, got " + arguments[i]);
            }
            values.put(arguments[i].substring(2), arguments[i + 1]);
        }
    }

    String text(String name) {
        String value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }

    String text(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    int number(String name, int fallback) {
        return values.containsKey(name) ? Integer.parseInt(values.get(name)) : fallback;
    }

    long longNumber(String name, long fallback) {
        return values.containsKey(name) ? Long.parseLong(values.get(name)) : fallback;
    }
}
