package dev.klave.agent.tool;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/** Quantities from a cluster's metrics are read or left at nothing, never an exception. */
class QuantitiesProperties {
    @Property(tries = 1000)
    void anyTextIsAQuantityOrNothing(@ForAll String text) {
        assertThat(Quantities.parse(text)).isNotNull();
    }

    @Property(tries = 300)
    void nanocoresAndKibibytesReadBackAsKubectlPrintsThem(@ForAll @LongRange(min = 0, max = 64_000_000_000L) long n,
            @ForAll @LongRange(min = 0, max = 1L << 40) long ki) {
        BigDecimal cores = Quantities.parse(n + "n").orElseThrow();
        BigDecimal bytes = Quantities.parse(ki + "Ki").orElseThrow();

        assertThat(cores).isEqualByComparingTo(BigDecimal.valueOf(n).movePointLeft(9));
        assertThat(bytes).isEqualByComparingTo(BigDecimal.valueOf(ki * 1024));
        assertThat(Quantities.millicores(cores)).matches("[0-9]+m");
        assertThat(Quantities.mebibytes(bytes)).matches("[0-9]+Mi");
    }

    @Example
    void theForms() {
        assertThat(Quantities.parse("1500m")).contains(new BigDecimal("1.500"));
        assertThat(Quantities.millicores(Quantities.parse("250000000n").orElseThrow())).isEqualTo("250m");
        assertThat(Quantities.millicores(Quantities.parse("1").orElseThrow())).isEqualTo("1000m");
        assertThat(Quantities.mebibytes(Quantities.parse("4Gi").orElseThrow())).isEqualTo("4096Mi");
        assertThat(Quantities.mebibytes(Quantities.parse("128974848").orElseThrow())).isEqualTo("123Mi");
        assertThat(Quantities.parse("1e3")).map(BigDecimal::intValue).contains(1000);
        assertThat(Quantities.parse("12 Mi")).isEmpty();
        assertThat(Quantities.parse("Mi")).isEmpty();
        assertThat(Quantities.parse("1e999999")).isEmpty();
    }
}
