package dev.klave.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Where the network library may be used (ARCHITECTURE.md): Vert.x and Netty only at the HTTP
 * edge ({@code http}) and in the proxy's adapter ({@code proxy}); the gateway that every way into
 * a cluster shares uses neither, nor the edge, so a second way in (spec 3's tools) can use it
 * without an HTTP request in sight.
 */
class LayersTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.klave");
    /** Test classes (and their nested classes), which use the kit and are no part of it. */
    private static final Pattern KIT_EXCLUDED = Pattern.compile(".*(Test|IT|Conformance)(\\$[^/]*)?\\.class");
    /** The test kit: simulators, fakes and helpers, without the test classes that use them. */
    private static final JavaClasses KIT = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
            .withImportOption(location -> !location.matches(KIT_EXCLUDED))
            .importPackages("dev.klave");

    @Test
    void vertxAndNettyOnlyInTheEdgeAndTheProxy() {
        noClasses().that().resideOutsideOfPackages("dev.klave.http..", "dev.klave.proxy..")
                .should().dependOnClassesThat().resideInAnyPackage("io.vertx..", "io.netty..")
                .check(MAIN);
    }

    @Test
    void theGatewayUsesNeitherTheNetworkLibraryNorTheEdgeNorTheProxy() {
        assertThat(MAIN.stream().filter(type -> type.getPackageName().equals("dev.klave.gateway"))).isNotEmpty();
        noClasses().that().resideInAPackage("dev.klave.gateway..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("io.vertx..", "io.netty..", "dev.klave.http..", "dev.klave.proxy..")
                .check(MAIN);
    }

    /**
     * Issue 52: who may do what is decided in one place. Only the access package — its authority,
     * the grants' and eligible grants' services — and the store that implements them read the
     * grants; everything else asks {@code access.Authority}.
     */
    @Test
    void onlyAccessAndTheStoreReadGrantsAndEligibleGrants() {
        noClasses().that().resideOutsideOfPackages("dev.klave.access..", "dev.klave.store..")
                .should().dependOnClassesThat().haveFullyQualifiedName("dev.klave.access.GrantStore")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("dev.klave.access.EligibleGrantStore")
                .check(MAIN);
    }

    @Test
    void theProxyDoesNotReachIntoTheReconciler() {
        noClasses().that().resideInAPackage("dev.klave.proxy..")
                .should().dependOnClassesThat().resideInAPackage("dev.klave.reconcile..")
                .check(MAIN);
    }

    @Test
    void theTestKitsPackagesDoNotDependOnEachOtherInCycles() {
        // Not vacuous: the kit's helpers, the cluster simulator and the other fakes are seen.
        assertThat(KIT.containPackage("dev.klave.testing")).isTrue();
        assertThat(KIT.containPackage("dev.klave.simulator")).isTrue();
        assertThat(KIT.stream().noneMatch(type -> type.getSimpleName().endsWith("Test"))).isTrue();
        slices().assignedFrom(PackageCyclesTest.EVERY_PACKAGE).should().beFreeOfCycles().check(KIT);
    }
}
