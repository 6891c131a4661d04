package dev.klave.deploy;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the machine's real {@code kubectl kustomize} (kubectl 1.32 carries kustomize 5.5) on a
 * directory and reads what it prints: what {@code kubectl apply -k} would send to a cluster.
 */
final class Kustomize {
    static final Path KUBECTL = Path.of("/usr/bin/kubectl");
    private static final long TIMEOUT_SECONDS = 60;

    private Kustomize() {
    }

    static Manifests build(Path directory) {
        requireNonNull(directory, "directory is null");
        if (!Files.isExecutable(KUBECTL)) {
            throw new IllegalStateException(KUBECTL + " is missing: the manifests' tests run the real kubectl");
        }
        try {
            Path output = Files.createTempFile("kustomize", ".yaml");
            Path errors = Files.createTempFile("kustomize", ".err");
            try {
                Process process = new ProcessBuilder(KUBECTL.toString(), "kustomize", directory.toString())
                        .redirectOutput(output.toFile())
                        .redirectError(errors.toFile())
                        .start();
                if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new IllegalStateException("kubectl kustomize " + directory + " did not finish");
                }
                if (process.exitValue() != 0) {
                    throw new IllegalStateException("kubectl kustomize " + directory + " failed ("
                            + process.exitValue() + "): " + Files.readString(errors, StandardCharsets.UTF_8));
                }
                return new Manifests(parse(Files.readString(output, StandardCharsets.UTF_8)));
            } finally {
                Files.deleteIfExists(output);
                Files.deleteIfExists(errors);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static List<JsonNode> parse(String yaml) throws IOException {
        try (var documents = new YAMLMapper().readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
            return documents.readAll().stream().filter(document -> !document.isNull() && !document.isEmpty()).toList();
        }
    }
}
