package dev.klave.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Spanish text a person or client reads is in the catalogue ({@code messages.Message},
 * {@code messages.Text}), with a stable code: none is written inline in the code, where it could
 * drift from the specification unseen. Found by what only Spanish writes — accented vowels, ñ, ¿ ¡ —
 * and the words the catalogue's refusals are made of, inside string literals outside comments.
 */
class SpanishOutsideTheCatalogueTest {
    private static final Path MAIN = Path.of("src/main/java/dev/klave");
    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern SPANISH = Pattern.compile(
            "[áéíóúñÁÉÍÓÚÑ¿¡]|\\b(debe ser|es obligatorio|no es|falta|no puede|solo se admite)\\b");

    @Test
    void noSpanishLiteralLivesOutsideTheCatalogue() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")
                    && !path.startsWith(MAIN.resolve("messages"))).toList()) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i).strip();
                    if (line.startsWith("*") || line.startsWith("/*") || line.startsWith("//")) {
                        continue;
                    }
                    Matcher literal = LITERAL.matcher(line.replaceAll("//.*$", ""));
                    while (literal.find()) {
                        if (SPANISH.matcher(literal.group(1)).find()) {
                            found.add(MAIN.relativize(file) + ":" + (i + 1) + " " + literal.group());
                        }
                    }
                }
            }
        }
        assertThat(found).as("Spanish literals outside messages/").isEmpty();
    }
}
