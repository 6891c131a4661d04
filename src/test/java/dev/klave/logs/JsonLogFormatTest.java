package dev.klave.logs;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/**
 * Klave's own {@code logback.xml}, started as {@code klave serve} starts it, in each format: with
 * {@code KLAVE_LOG_FORMAT=json} every line Klave writes is one JSON object (time, level, logger,
 * thread, message, the Audit-ID when the line has one, the stack trace), hostile values inside
 * escaped as the text format escapes them, so no line can be forged in either.
 */
class JsonLogFormatTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FORGED = "1999-01-01T00:00:00.000Z INFO  [main] dev.klave.Klave - forged line";
    private static final String HOSTILE = "mallory\"}\n" + FORGED + "\r\n{\"level\":\"ERROR\"}\u001b[2J\u0000\\";

    /** Runs {@code logging} with Klave's logback.xml in {@code format}; the lines written to standard error. */
    private static List<String> logged(String format, java.util.function.Consumer<LoggerContext> logging)
            throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.err;
        LoggerContext context = new LoggerContext();
        // What logback's own initialisation gives the context SLF4J binds at start.
        context.setMDCAdapter(new LogbackMDCAdapter());
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            // What the environment variable gives logback: the context's property wins over it.
            context.putProperty("KLAVE_LOG_FORMAT", format);
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            URL configuration = JsonLogFormatTest.class.getResource("/logback.xml");
            assertThat(configuration).isNotNull();
            configurator.doConfigure(configuration);
            logging.accept(context);
        } finally {
            context.stop();
            System.setErr(original);
        }
        if (captured.size() == 0) {
            throw new AssertionError("nothing logged; logback said: " + context.getStatusManager().getCopyOfStatusList());
        }
        List<String> lines = new ArrayList<>();
        for (String line : captured.toString(StandardCharsets.UTF_8).split("\n", -1)) {
            if (!line.isEmpty()) {
                lines.add(line);
            }
        }
        return lines;
    }

    private static void logHostile(LoggerContext context) {
        Logger log = context.getLogger("dev.klave.proxy.ProxyHandler");
        log.info("sign-in of {} refused", HOSTILE);
        log.atWarn().addKeyValue(LogFields.AUDIT_ID, "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b")
                .log("proxy {} to cluster {} failed: {}", "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "prod-1", HOSTILE);
        log.error("admission failed", new IllegalStateException("claim " + HOSTILE,
                new RuntimeException("cause " + HOSTILE)));
    }

    @Test
    void jsonFormatWritesOneObjectPerLineWithHostileValuesEscaped() throws Exception {
        List<String> lines = logged("json", JsonLogFormatTest::logHostile);

        assertThat(lines).hasSize(3);
        List<JsonNode> objects = new ArrayList<>();
        for (String line : lines) {
            assertThat(line.chars().filter(c -> c < 0x20 || c == 0x7f).count())
                    .as("raw control characters in %s", line).isZero();
            objects.add(JSON.readTree(line));
        }
        JsonNode first = objects.get(0);
        assertThat(first.get("time").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        assertThat(first.get("level").asText()).isEqualTo("INFO");
        assertThat(first.get("logger").asText()).isEqualTo("dev.klave.proxy.ProxyHandler");
        assertThat(first.get("thread").asText()).isNotEmpty();
        // Escaped as the text format escapes it: the newline is the two characters \n, still one line.
        assertThat(first.get("message").asText()).isEqualTo("sign-in of mallory\"}\\n" + FORGED
                + "\\r\\n{\"level\":\"ERROR\"}\\u001b[2J\\u0000\\ refused");
        assertThat(first.has("audit_id")).isFalse();

        JsonNode second = objects.get(1);
        assertThat(second.get("level").asText()).isEqualTo("WARN");
        assertThat(second.get("audit_id").asText()).isEqualTo("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
        assertThat(second.get("message").asText()).startsWith("proxy 0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b to "
                + "cluster prod-1 failed: mallory");

        JsonNode third = objects.get(2);
        assertThat(third.get("level").asText()).isEqualTo("ERROR");
        String error = third.get("error").asText();
        assertThat(error).startsWith("java.lang.IllegalStateException: claim mallory\"}\\n1999-01-01")
                .contains("\n\tat dev.klave.logs.JsonLogFormatTest")
                .contains("Caused by: java.lang.RuntimeException: cause mallory");
        // The trace's own line breaks are JSON's \n inside the one line; the hostile ones stay escaped.
        assertThat(error.lines()).noneMatch(line -> line.startsWith("1999-01-01") || line.startsWith("{"));
    }

    @Test
    void textFormatStaysTheDefaultAndKeepsItsEscaping() throws Exception {
        List<String> lines = logged("text", JsonLogFormatTest::logHostile);

        assertThat(lines.getFirst()).matches("\\d{4}-\\d\\d-\\d\\dT\\S+ INFO  \\[.*\\] "
                + "dev\\.klave\\.proxy\\.ProxyHandler - sign-in of mallory\"}\\\\n1999-01-01.*");
        assertThat(lines).noneMatch(line -> line.startsWith("1999-01-01") || line.startsWith("{"));
        assertThat(lines).noneMatch(line -> line.contains("\"audit_id\""));
    }
}
