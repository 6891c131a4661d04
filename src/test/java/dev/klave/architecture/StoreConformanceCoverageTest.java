package dev.klave.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * DESIGN.md "Storage contract": every Store interface has a conformance suite that runs against
 * SQLite and against PostgreSQL. This test names each interface no suite exercises, and each suite
 * missing one of its two dialects.
 */
class StoreConformanceCoverageTest {
    private static final JavaClasses KLAVE = new ClassFileImporter().importPackages("dev.klave");
    private static final String SUITE_BASE = "dev.klave.store.StoreConformance";

    private static List<JavaClass> suites() {
        return KLAVE.stream()
                .filter(type -> type.isAssignableTo(SUITE_BASE) && !type.getName().equals(SUITE_BASE))
                .filter(type -> type.getModifiers().contains(JavaModifier.ABSTRACT))
                .toList();
    }

    @Test
    void everyStoreInterfaceIsExercisedByAConformanceSuite() {
        List<JavaClass> stores = KLAVE.stream()
                .filter(JavaClass::isInterface)
                .filter(type -> type.getSimpleName().endsWith("Store"))
                .filter(type -> !type.getPackageName().equals("dev.klave.store"))
                .filter(type -> type.getSource().map(source -> !source.getUri().toString().contains("test-classes"))
                        .orElse(true))
                .toList();
        assertThat(stores).as("not vacuous").hasSizeGreaterThan(10);
        List<JavaClass> suites = suites();

        List<String> unexercised = new ArrayList<>();
        for (JavaClass store : stores) {
            boolean exercised = suites.stream().anyMatch(suite -> dependsOn(suite, store));
            if (!exercised) {
                unexercised.add(store.getName());
            }
        }

        assertThat(unexercised).as("Store interfaces no conformance suite exercises").isEmpty();
    }

    @Test
    void everyConformanceSuiteRunsOnSqliteAndOnPostgres() {
        List<String> missing = new ArrayList<>();
        for (JavaClass suite : suites()) {
            Set<String> runs = suite.getSubclasses().stream().map(JavaClass::getSimpleName).collect(Collectors.toSet());
            String name = suite.getSimpleName().replace("Conformance", "");
            if (runs.stream().noneMatch(run -> run.startsWith("Sqlite"))) {
                missing.add(name + " on SQLite");
            }
            if (runs.stream().noneMatch(run -> run.startsWith("Postgres"))) {
                missing.add(name + " on PostgreSQL");
            }
        }

        assertThat(suites()).as("not vacuous").hasSizeGreaterThan(10);
        assertThat(missing).as("conformance suites missing a dialect").isEmpty();
    }

    /** The suite (or a class nested in it) uses the interface or a class implementing it. */
    private static boolean dependsOn(JavaClass suite, JavaClass store) {
        return KLAVE.stream()
                .filter(type -> type.equals(suite) || type.getName().startsWith(suite.getName() + "$"))
                .flatMap(type -> type.getDirectDependenciesFromSelf().stream())
                .map(Dependency::getTargetClass)
                .anyMatch(target -> target.equals(store) || target.getAllRawInterfaces().contains(store));
    }
}
