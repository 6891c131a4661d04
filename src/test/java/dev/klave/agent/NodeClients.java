package dev.klave.agent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real MCP clients of {@code src/test/mcp-clients} (installed by the build from its lock
 * file): each run is bounded in time and its output kept whole for the assertion messages.
 */
final class NodeClients {
    static final Path DIRECTORY = Path.of("src/test/mcp-clients").toAbsolutePath();
    /** Node 22, which the 2026-07-28 conformance suite needs, from the npm package {@code node}. */
    static final Path NODE_22 = DIRECTORY.resolve("node_modules/.bin/node");

    private NodeClients() {}

    record Run(int exit, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
        }
    }

    /** The build installs them (`npm ci` in generate-test-resources); a run without them is a broken build. */
    static void requireInstalled() {
        if (!Files.isDirectory(DIRECTORY.resolve("node_modules/@modelcontextprotocol/inspector"))
                || !Files.isExecutable(NODE_22)) {
            throw new IllegalStateException("src/test/mcp-clients is not installed: run ./mvnw verify (it runs npm ci "
                    + "there), or npm ci in that directory");
        }
    }

    /** Runs {@code command} in the clients' directory, at most {@code seconds}. */
    static Run run(List<String> command, Map<String, String> environment, int seconds) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(DIRECTORY.toFile());
        builder.environment().putAll(environment);
        builder.environment().put("NO_COLOR", "1");
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            StringBuilder stdout = new StringBuilder();
            StringBuilder stderr = new StringBuilder();
            Thread out = Thread.ofVirtual().start(() -> drain(process.getInputStream(), stdout));
            Thread err = Thread.ofVirtual().start(() -> drain(process.getErrorStream(), stderr));
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
            out.join(5_000);
            err.join(5_000);
            return new Run(process.isAlive() ? -1 : process.exitValue(), stdout.toString(), stderr.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static void drain(java.io.InputStream stream, StringBuilder into) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                synchronized (into) {
                    into.append(line).append('\n');
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    static List<String> inspector(String url, String token, String era, String... more) {
        List<String> command = new ArrayList<>(List.of("node", "node_modules/.bin/mcp-inspector", "--cli", url,
                "--transport", "http", "--header", "Authorization: Bearer " + token, "--protocol-era", era,
                "--format", "json", "-q"));
        command.addAll(List.of(more));
        return command;
    }
}
