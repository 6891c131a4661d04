package dev.klave.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Data flows one way (ARCHITECTURE.md): edge → domain → storage contracts. A cycle
 * between two packages means neither can be read, tested or changed without the other; this test
 * names the classes that close any such cycle.
 */
class PackageCyclesTest {
    private static final JavaClasses KLAVE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.klave");

    @Test
    void noTwoPackagesDependOnEachOther() {
        // Not vacuous: the rule sees every package of the main code.
        assertThat(KLAVE.getPackage("dev.klave").getSubpackages()).hasSizeGreaterThan(15);
        slices().matching("dev.klave.(*)..").should().beFreeOfCycles().check(KLAVE);
    }
}
