package dev.klave.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The packaged jar run as its own process, as an operator runs it. */
public final class KlaveProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("Klave listening on .*:(\\d+) ");
    /** How long the pipes may stay open once the process has exited (nothing else holds them). */
    private static final Duration OUTPUT_ENDS = Duration.ofSeconds(10);

    private final Process process;
    private final List<String> out = new ArrayList<>();
    private final List<String> err = new ArrayList<>();
    /** The threads reading the process's output and error; each ends when its pipe does. */
    private final List<Thread> readers;

    private KlaveProcess(Process process) {
        this.process = process;
        this.readers = List.of(collect(process.getInputStream(), out), collect(process.getErrorStream(), err));
    }

    /** Starts {@code java -jar klave.jar arguments…} in {@code directory} with only {@code environment} set. */
    public static KlaveProcess start(Path directory, Map<String, String> environment, String... arguments) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-jar", requireJar()));
        command.addAll(List.of(arguments));
        return start(directory, environment, command);
    }

    private static KlaveProcess start(Path directory, Map<String, String> environment, List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("SERVICE_") || name.startsWith("KLAVE_"));
        builder.environment().putAll(environment);
        try {
            return new KlaveProcess(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Runs the {@code ./klave} launcher as a user does, to its end. The launcher is copied into
     * {@code directory} beside a link to the build's {@code target/}: it finds the jar there and,
     * with no sources beside it, never rebuilds during a test.
     */
    public static KlaveProcess launch(Path directory, Map<String, String> environment, String... arguments) {
        Path target = Path.of(requireJar()).toAbsolutePath().getParent();
        try {
            Path launcher = directory.resolve("klave");
            Files.copy(target.getParent().resolve("klave"), launcher, StandardCopyOption.REPLACE_EXISTING);
            Files.createSymbolicLink(directory.resolve("target"), target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = new ArrayList<>(List.of(directory.resolve("klave").toString()));
        command.addAll(List.of(arguments));
        KlaveProcess process = start(directory, environment, command);
        process.awaitExit(Duration.ofSeconds(60));
        return process;
    }

    private static String requireJar() {
        String jar = System.getProperty("klave.jar");
        if (jar == null) {
            throw new IllegalStateException("system property klave.jar is not set (run through failsafe)");
        }
        return jar;
    }

    /** Runs a command to its end and returns its exit status. */
    public static KlaveProcess run(Path directory, Map<String, String> environment, String... arguments) {
        KlaveProcess process = start(directory, environment, arguments);
        process.awaitExit(Duration.ofSeconds(60));
        return process;
    }

    private static Thread collect(InputStream stream, List<String> lines) {
        return Thread.ofPlatform().daemon().name("klave-process-output").start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line; (line = reader.readLine()) != null; ) {
                    synchronized (lines) {
                        lines.add(line);
                        lines.notifyAll();
                    }
                }
            } catch (IOException ended) {
                // The process is gone.
            }
        });
    }

    /** Waits until the server logs the port it listens on. */
    public int awaitListening(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (err) {
            while (System.nanoTime() < deadline) {
                for (String line : err) {
                    Matcher matcher = LISTENING.matcher(line);
                    if (matcher.find()) {
                        return Integer.parseInt(matcher.group(1));
                    }
                }
                if (!process.isAlive()) {
                    break;
                }
                err.wait(100);
            }
        }
        throw new AssertionError("Klave did not start listening; it wrote:\n" + String.join("\n", stderr()));
    }

    /**
     * Sends SIGTERM, as an orchestrator does. Through the process handle: {@code Process.destroy()}
     * would also close our ends of the pipes and lose what the process logs while it stops.
     */
    public void terminate() {
        process.toHandle().destroy();
    }

    /** SIGKILL: the process dies at once, with no chance to finish anything (a crash, an OOM kill). */
    public void kill() {
        process.toHandle().destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("Klave did not exit within " + timeout + "; it wrote:\n" + stderr());
            }
            // What the process wrote last is in the lists once both pipes have been read to their end.
            long deadline = System.nanoTime() + OUTPUT_ENDS.toNanos();
            for (Thread reader : readers) {
                if (!reader.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())))) {
                    throw new AssertionError("Klave exited but its output did not end within " + OUTPUT_ENDS
                            + "; it wrote:\n" + String.join("\n", stderr()));
                }
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public int exitValue() {
        return process.exitValue();
    }

    public boolean alive() {
        return process.isAlive();
    }

    public List<String> stdout() {
        synchronized (out) {
            return List.copyOf(out);
        }
    }

    public List<String> stderr() {
        synchronized (err) {
            return List.copyOf(err);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
