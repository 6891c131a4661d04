package dev.klave.agent.tool;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities (apimachinery's {@code resource.Quantity}: a decimal number with
 * a binary suffix Ki…Ei, a decimal suffix n, u, m, k, M…E, or an exponent) as the metrics API
 * writes them — {@code 12345678n} CPU, {@code 51200Ki} memory — read into numbers and written
 * back as {@code kubectl top} prints them. Anything else is no quantity (empty), never an error.
 */
final class Quantities {
    private static final Pattern QUANTITY = Pattern.compile(
            "([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]{1,3})?");
    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)), Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)), Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)), Map.entry("Ei", BigDecimal.valueOf(1L << 60)),
            Map.entry("n", new BigDecimal("1e-9")), Map.entry("u", new BigDecimal("1e-6")),
            Map.entry("m", new BigDecimal("1e-3")), Map.entry("k", new BigDecimal("1e3")),
            Map.entry("M", new BigDecimal("1e6")), Map.entry("G", new BigDecimal("1e9")),
            Map.entry("T", new BigDecimal("1e12")), Map.entry("P", new BigDecimal("1e15")),
            Map.entry("E", new BigDecimal("1e18")));

    private Quantities() {}

    static Optional<BigDecimal> parse(String text) {
        if (text == null || text.length() > 64) {
            return Optional.empty();
        }
        Matcher matcher = QUANTITY.matcher(text);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        BigDecimal number = new BigDecimal(matcher.group(1));
        String suffix = matcher.group(2);
        if (suffix == null) {
            return Optional.of(number);
        }
        if (suffix.startsWith("e") || suffix.startsWith("E")) {
            return Optional.of(number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1))));
        }
        return Optional.of(number.multiply(SUFFIXES.get(suffix)));
    }

    /** CPU cores as kubectl top prints them: whole millicores, {@code 250m}. */
    static String millicores(BigDecimal cores) {
        return cores.movePointRight(3).setScale(0, RoundingMode.CEILING).toPlainString() + "m";
    }

    /** Bytes as kubectl top prints them: whole mebibytes, {@code 64Mi}. */
    static String mebibytes(BigDecimal bytes) {
        return bytes.divide(BigDecimal.valueOf(1L << 20), 0, RoundingMode.HALF_UP).toPlainString() + "Mi";
    }
}
