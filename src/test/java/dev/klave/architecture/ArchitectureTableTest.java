package dev.klave.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * ARCHITECTURE.md's package table says what each package depends on; this test reads the table
 * and the compiled classes and fails on any difference, printing the column as the code has it —
 * so the table cannot drift from the code again. A row covers its package and the packages below
 * it that have no row of their own; the root's row covers the root only.
 */
class ArchitectureTableTest {
    private static final String ROOT = "dev.klave";
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z.]+)`[^|]*\\|.*\\| ([^|]*) \\|$");
    private static final Pattern NAME = Pattern.compile("`([a-z.]+)`");
    private static final JavaClasses KLAVE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    @Test
    void theDependencyColumnIsWhatTheCodeDependsOn() throws IOException {
        Map<String, Set<String>> documented = documented();
        // Not vacuous: the table is read, the root's row among its rows.
        assertThat(documented).containsKeys(ROOT, ROOT + ".http", ROOT + ".gateway").hasSizeGreaterThan(25);

        Map<String, Set<String>> actual = new TreeMap<>();
        List<String> unlisted = new ArrayList<>();
        for (JavaClass type : KLAVE) {
            Optional<String> unit = unitOf(type.getPackageName(), documented.keySet());
            if (unit.isEmpty()) {
                unlisted.add(type.getPackageName());
                continue;
            }
            Set<String> targets = actual.computeIfAbsent(unit.get(), ignored -> new TreeSet<>());
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                String target = dependency.getTargetClass().getBaseComponentType().getPackageName();
                if (target.equals(ROOT) || target.startsWith(ROOT + ".")) {
                    unitOf(target, documented.keySet()).filter(other -> !other.equals(unit.get()))
                            .ifPresent(targets::add);
                }
            }
        }
        assertThat(new TreeSet<>(unlisted)).as("packages without a row in ARCHITECTURE.md").isEmpty();
        assertThat(documented.keySet()).as("rows naming no package of the code").isSubsetOf(actual.keySet());

        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, Set<String>> row : actual.entrySet()) {
            if (!row.getValue().equals(documented.get(row.getKey()))) {
                wrong.add(short_(row.getKey()) + " | " + (row.getValue().isEmpty() ? "—"
                        : String.join(", ", row.getValue().stream().map(name -> "`" + short_(name) + "`").toList())));
            }
        }
        assertThat(wrong).as("rows whose 'depends on' differs from the code (the code's column shown)").isEmpty();
    }

    /** The row a package falls under: its own, or its nearest ancestor's (never the root's). */
    private static Optional<String> unitOf(String packageName, Set<String> rows) {
        if (packageName.equals(ROOT)) {
            return Optional.of(ROOT);
        }
        String candidate = packageName;
        while (!candidate.equals(ROOT)) {
            if (rows.contains(candidate)) {
                return Optional.of(candidate);
            }
            candidate = candidate.substring(0, candidate.lastIndexOf('.'));
        }
        return Optional.empty();
    }

    private static Map<String, Set<String>> documented() throws IOException {
        Map<String, Set<String>> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("ARCHITECTURE.md"))) {
            Matcher row = ROW.matcher(line);
            if (!row.matches()) {
                continue;
            }
            Set<String> dependsOn = new TreeSet<>();
            Matcher name = NAME.matcher(row.group(2));
            while (name.find()) {
                dependsOn.add(full(name.group(1)));
            }
            rows.put(full(row.group(1)), dependsOn);
        }
        return rows;
    }

    private static String full(String name) {
        return name.equals(ROOT) ? ROOT : ROOT + "." + name;
    }

    private static String short_(String name) {
        return name.equals(ROOT) ? ROOT : name.substring(ROOT.length() + 1);
    }
}
