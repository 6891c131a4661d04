package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs the machine's real kubectl against a simulator with a kubeconfig in a temporary directory,
 * which is also kubectl's HOME (so its discovery cache never leaks between tests).
 */
public final class Kubectl implements AutoCloseable {
    static final Path BINARY = Path.of("/usr/bin/kubectl");
    private static final long TIMEOUT_SECONDS = 30;

    private final Path home;
    private final Path kubeconfig;
    private final Map<Process, Long> outputs = new ConcurrentHashMap<>();

    public record Result(int exitCode, String stdout, String stderr) {
        public String output() {
            return stdout + stderr;
        }
    }

    public Kubectl(ClusterSimulator simulator, String token) {
        this(simulator.kubeconfig(requireNonNull(token, "token is null")));
    }

    public Kubectl(String kubeconfigText) {
        try {
            this.home = Files.createTempDirectory("kubectl-home");
            this.kubeconfig = home.resolve("kubeconfig");
            Files.writeString(kubeconfig, kubeconfigText);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path kubeconfig() {
        return kubeconfig;
    }

    public Result run(String... arguments) {
        return run(Map.of(), "", arguments);
    }

    public Result run(Map<String, String> environment, String stdin, String... arguments) {
        try {
            Process process = start(environment, arguments);
            process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().close();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("kubectl " + String.join(" ", arguments) + " did not finish");
            }
            return new Result(process.exitValue(), read(process, "stdout"), read(process, "stderr"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts kubectl and leaves it running (watch, port-forward, logs -f); output goes to files. */
    public Process start(Map<String, String> environment, String... arguments) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(BINARY.toString());
        command.add("--kubeconfig=" + kubeconfig);
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("HOME", home.toString());
        builder.environment().putAll(environment);
        long id = System.nanoTime();
        builder.redirectOutput(home.resolve(id + ".stdout").toFile());
        builder.redirectError(home.resolve(id + ".stderr").toFile());
        Process process = builder.start();
        outputs.put(process, id);
        return process;
    }

    /** What a started process has written so far to "stdout" or "stderr". */
    public String read(Process process, String stream) {
        try {
            return Files.readString(home.resolve(outputs.get(process) + "." + stream));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        outputs.keySet().forEach(Process::destroyForcibly);
        try (Stream<Path> files = Files.walk(home)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }
}
