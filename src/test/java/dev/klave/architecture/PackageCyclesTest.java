package dev.klave.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * Data flows one way (ARCHITECTURE.md): edge → domain → storage contracts. A cycle between two
 * packages means neither can be read, tested or changed without the other; this test names the
 * classes that close any such cycle. Every package is a slice of its own — a subpackage and its
 * parent ({@code agent} and {@code agent.tool}), the root and {@code cli} — so no cycle hides
 * inside a top-level package.
 */
class PackageCyclesTest {
    private static final JavaClasses KLAVE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.klave");

    /** Each class in the slice of its own package, the root {@code dev.klave} included. */
    static final SliceAssignment EVERY_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass type) {
            return type.getPackageName().startsWith("dev.klave") ? SliceIdentifier.of(type.getPackageName())
                    : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "every package of dev.klave";
        }
    };

    @Test
    void noTwoPackagesDependOnEachOther() {
        // Not vacuous: the rule sees every package of the main code, the root and nested ones.
        assertThat(KLAVE.getPackage("dev.klave").getSubpackages()).hasSizeGreaterThan(15);
        assertThat(KLAVE.containPackage("dev.klave.agent.tool")).isTrue();
        assertThat(KLAVE.getPackage("dev.klave").getClasses()).isNotEmpty();
        slices().assignedFrom(EVERY_PACKAGE).should().beFreeOfCycles().check(KLAVE);
    }
}
