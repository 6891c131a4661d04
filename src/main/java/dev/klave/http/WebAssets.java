package dev.klave.http;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The single-page app's files, read once from the classpath folder {@code web/} into memory.
 * Requests are answered from this map only, so no request path ever reaches the file system.
 */
public final class WebAssets {
    private static final String ROOT = "web";
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("html", "text/html; charset=utf-8"),
            Map.entry("js", "text/javascript; charset=utf-8"),
            Map.entry("mjs", "text/javascript; charset=utf-8"),
            Map.entry("css", "text/css; charset=utf-8"),
            Map.entry("json", "application/json; charset=utf-8"),
            Map.entry("map", "application/json; charset=utf-8"),
            Map.entry("svg", "image/svg+xml"),
            Map.entry("png", "image/png"),
            Map.entry("ico", "image/x-icon"),
            Map.entry("webp", "image/webp"),
            Map.entry("woff2", "font/woff2"),
            Map.entry("txt", "text/plain; charset=utf-8"));

    /** One file: its bytes and media type. */
    public record Asset(byte[] content, String contentType) {
        public Asset {
            requireNonNull(content, "content is null");
            requireNonNull(contentType, "contentType is null");
        }

        public boolean html() {
            return contentType.startsWith("text/html");
        }
    }

    private final Map<String, Asset> files;

    private WebAssets(Map<String, Asset> files) {
        if (!files.containsKey("/index.html")) {
            throw new IllegalStateException("the web interface has no index.html");
        }
        this.files = Map.copyOf(files);
    }

    public static WebAssets fromClasspath() {
        URL index = WebAssets.class.getClassLoader().getResource(ROOT + "/index.html");
        if (index == null) {
            throw new IllegalStateException("the web interface is missing from the classpath (" + ROOT + "/)");
        }
        try {
            URI uri = index.toURI();
            if (uri.getScheme().equals("jar")) {
                try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
                    return new WebAssets(read(jar.getPath("/" + ROOT)));
                }
            }
            return new WebAssets(read(Path.of(uri).getParent()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the web interface", e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the web interface", e);
        }
    }

    private static Map<String, Asset> read(Path root) throws IOException {
        Map<String, Asset> files = new HashMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path file : (Iterable<Path>) paths.filter(Files::isRegularFile)::iterator) {
                String relative = root.relativize(file).toString().replace('\\', '/');
                files.put("/" + relative, new Asset(Files.readAllBytes(file), typeOf(relative)));
            }
        }
        return files;
    }

    private static String typeOf(String name) {
        int dot = name.lastIndexOf('.');
        String extension = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
        return TYPES.getOrDefault(extension, "application/octet-stream");
    }

    public Optional<Asset> find(String path) {
        return Optional.ofNullable(files.get(path));
    }

    public Asset index() {
        return files.get("/index.html");
    }
}
