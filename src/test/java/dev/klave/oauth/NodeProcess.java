package dev.klave.oauth;

import dev.klave.testing.Eventually;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real client of {@code src/test/mcp-clients} (installed by the build from its lock file) run
 * on the Node 22 that directory installs, watched line by line while it runs: the OAuth clients
 * print the authorization URL a person would open and then wait for the answer at their callback.
 */
final class NodeProcess implements AutoCloseable {
    static final Path DIRECTORY = Path.of("src/test/mcp-clients").toAbsolutePath();
    static final Path NODE_22 = DIRECTORY.resolve("node_modules/.bin/node");

    private final Process process;
    private final List<String> stdout = new ArrayList<>();
    private final List<String> stderr = new ArrayList<>();
    private final Thread out;
    private final Thread err;

    private NodeProcess(Process process) {
        this.process = process;
        this.out = Thread.ofVirtual().start(() -> collect(process.getInputStream(), stdout));
        this.err = Thread.ofVirtual().start(() -> collect(process.getErrorStream(), stderr));
    }

    /** The build installs them (`npm ci` in generate-test-resources); a run without them is a broken build. */
    static void requireInstalled() {
        if (!Files.isDirectory(DIRECTORY.resolve("node_modules/conformance-next"))
                || !Files.isDirectory(DIRECTORY.resolve("node_modules/@modelcontextprotocol/inspector"))
                || !Files.isExecutable(NODE_22)) {
            throw new IllegalStateException("src/test/mcp-clients is not installed: run ./mvnw verify (it runs npm ci "
                    + "there), or npm ci in that directory");
        }
    }

    /** Starts {@code node arguments…} in the clients' directory with {@code environment} added, no standard input. */
    static NodeProcess start(Map<String, String> environment, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(NODE_22.toString());
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command).directory(DIRECTORY.toFile());
        // No display and a browser that does nothing: the test is the person's browser.
        builder.environment().remove("DISPLAY");
        builder.environment().remove("WAYLAND_DISPLAY");
        builder.environment().put("BROWSER", "true");
        builder.environment().put("NO_COLOR", "1");
        builder.environment().putAll(environment);
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            return new NodeProcess(process);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A loopback port free at this moment, for a client's callback listener. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The first match of {@code pattern} (group 1) in either stream, within {@code timeout}; fails
     * saying {@code what}, with the process's output, when it does not come — at once when the
     * process has ended without it.
     */
    String await(String what, Pattern pattern, Duration timeout) {
        return Eventually.value(what + "\n" + this, timeout, () -> {
            boolean ended = !process.isAlive() && !out.isAlive() && !err.isAlive();
            Optional<String> found = match(pattern);
            if (found.isEmpty() && ended) {
                throw new AssertionError("the process ended without " + what + "\n" + this);
            }
            return found;
        });
    }

    private Optional<String> match(Pattern pattern) {
        for (List<String> lines : List.of(stdout, stderr)) {
            synchronized (lines) {
                for (String line : lines) {
                    Matcher matcher = pattern.matcher(line);
                    if (matcher.find()) {
                        return Optional.of(matcher.group(1));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Waits for the end, at most {@code timeout} (then ends it); its exit code, -1 if it had to be ended. */
    int exit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                close();
                return -1;
            }
            out.join(5_000);
            err.join(5_000);
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    String stdout() {
        synchronized (stdout) {
            return String.join("\n", stdout);
        }
    }

    @Override
    public String toString() {
        synchronized (stderr) {
            return "--- stdout\n" + stdout() + "\n--- stderr\n" + String.join("\n", stderr);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void collect(InputStream stream, List<String> into) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                synchronized (into) {
                    into.add(line);
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }
}
