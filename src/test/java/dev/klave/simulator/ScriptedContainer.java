package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What runs "inside" a simulated container: a few commands with predictable output, enough to
 * test streams and exit codes. {@code echo} prints its arguments, {@code cat} copies stdin to
 * stdout, {@code env} and {@code hostname} describe the pod, {@code sh -c} runs a script of these
 * separated by {@code ;} or {@code &&} and honours {@code exit N} and {@code >&2}.
 */
final class ScriptedContainer {
    private final ObjectNode pod;
    private final String container;

    /** The streams of one command; absent ones are empty or discard. */
    record Streams(InputStream stdin, OutputStream stdout, OutputStream stderr) {
        Streams {
            requireNonNull(stdin, "stdin is null");
            requireNonNull(stdout, "stdout is null");
            requireNonNull(stderr, "stderr is null");
        }
    }

    ScriptedContainer(ObjectNode pod, String container) {
        this.pod = requireNonNull(pod, "pod is null");
        this.container = requireNonNull(container, "container is null");
    }

    /** Runs a command and returns its exit code. */
    int run(List<String> command, Streams streams) throws IOException {
        if (command.isEmpty()) {
            return 0;
        }
        String program = command.getFirst();
        List<String> arguments = command.subList(1, command.size());
        if (program.startsWith("/")) {
            program = program.substring(program.lastIndexOf('/') + 1);
        }
        switch (program) {
            case "echo" -> {
                boolean newline = arguments.isEmpty() || !arguments.getFirst().equals("-n");
                List<String> words = newline ? arguments : arguments.subList(1, arguments.size());
                write(streams.stdout(), String.join(" ", words) + (newline ? "\n" : ""));
                return 0;
            }
            case "cat" -> {
                streams.stdin().transferTo(new FlushingStream(streams.stdout()));
                return 0;
            }
            case "env", "printenv" -> {
                Map<String, String> environment = environment();
                if (!arguments.isEmpty()) {
                    String value = environment.get(arguments.getFirst());
                    if (value == null) {
                        return 1;
                    }
                    write(streams.stdout(), value + "\n");
                    return 0;
                }
                StringBuilder text = new StringBuilder();
                environment.forEach((name, value) -> text.append(name).append('=').append(value).append('\n'));
                write(streams.stdout(), text.toString());
                return 0;
            }
            case "hostname" -> {
                write(streams.stdout(), podName() + "\n");
                return 0;
            }
            case "true" -> {
                return 0;
            }
            case "false" -> {
                return 1;
            }
            case "sleep" -> {
                return sleep(arguments);
            }
            case "sh", "bash", "ash" -> {
                if (arguments.size() >= 2 && arguments.getFirst().equals("-c")) {
                    return script(arguments.get(1), streams);
                }
                return 0;
            }
            default -> {
                write(streams.stderr(), "exec: \"" + program + "\": executable file not found in $PATH\n");
                return 127;
            }
        }
    }

    private int script(String script, Streams streams) throws IOException {
        int status = 0;
        for (String statement : script.split(";")) {
            for (String step : statement.split("&&")) {
                List<String> words = words(step.strip());
                if (words.isEmpty()) {
                    continue;
                }
                if (words.getFirst().equals("exit")) {
                    return words.size() > 1 ? Integer.parseInt(words.get(1)) : status;
                }
                boolean toStderr = words.getLast().equals(">&2") || words.getFirst().equals(">&2");
                List<String> command = new ArrayList<>(words);
                command.remove(">&2");
                OutputStream out = toStderr ? streams.stderr() : streams.stdout();
                status = run(command, new Streams(streams.stdin(), out, streams.stderr()));
                if (status != 0) {
                    break;
                }
            }
        }
        return status;
    }

    /** Splits on blanks, keeping single- or double-quoted words together. */
    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        char quote = 0;
        boolean inWord = false;
        for (char c : text.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    private Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
        environment.put("HOSTNAME", podName());
        for (JsonNode candidate : pod.path("spec").path("containers")) {
            if (candidate.path("name").asText().equals(container)) {
                for (JsonNode variable : candidate.path("env")) {
                    environment.put(variable.path("name").asText(), variable.path("value").asText());
                }
            }
        }
        environment.put("KUBERNETES_SERVICE_HOST", "10.96.0.1");
        environment.put("KUBERNETES_SERVICE_PORT", "443");
        environment.put("HOME", "/root");
        return environment;
    }

    private String podName() {
        return Json.string(pod, "metadata", "name").orElse("");
    }

    private static int sleep(List<String> arguments) {
        try {
            long seconds = arguments.isEmpty() ? 0 : Long.parseLong(arguments.getFirst());
            Thread.sleep(Math.min(seconds, 60) * 1000); // the container's `sleep` command itself
            return 0;
        } catch (NumberFormatException e) {
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** cat answers each chunk at once, as a terminal program would. */
    private static final class FlushingStream extends OutputStream {
        private final OutputStream out;

        FlushingStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            out.flush();
        }

        @Override
        public void write(byte[] buffer, int offset, int length) throws IOException {
            out.write(buffer, offset, length);
            out.flush();
        }
    }
}
