package dev.klave.cli;

import dev.klave.audit.AuditCursor;
import dev.klave.audit.view.AuditExport;
import dev.klave.audit.AuditFilter;
import dev.klave.audit.Channel;
import dev.klave.config.Settings;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.storage.DatabaseUnavailableException;
import dev.klave.store.Database;
import dev.klave.store.JdbiAuditStore;
import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code klave audit …}: reading the audit from the database directly. */
@Command(name = "audit",
        mixinStandardHelpOptions = true,
        description = "Reads the audit of proxied requests from the configured database.",
        subcommands = {AuditCommand.Export.class},
        synopsisSubcommandLabel = "COMMAND")
final class AuditCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required (export)");
    }

    @Command(name = "export",
            mixinStandardHelpOptions = true,
            description = {
                "Writes every audit row the filters keep, newest first, as CSV or JSON lines — the same rows and "
                        + "format as GET /api/audit/export — to a file or standard output, a thousand rows at a "
                        + "time (memory stays flat whatever the size).",
                "Reads up to the moment it starts. To resume an export that stopped, pass the id of the last "
                        + "row it wrote as --after."
            })
    static final class Export implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--format", paramLabel = "csv|jsonl", defaultValue = "csv",
                description = "Output format (default: ${DEFAULT-VALUE}).")
        String format;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE",
                description = "Write to FILE instead of standard output (replaced if it exists).")
        Path output;

        @Option(names = "--subject", paramLabel = "ID", description = "Only this subject's requests (its id).")
        String subject;

        @Option(names = "--cluster", paramLabel = "ID", description = "Only requests to this cluster.")
        String cluster;

        @Option(names = "--namespace", paramLabel = "NAME", description = "Only requests in this namespace.")
        String namespace;

        @Option(names = "--verb", paramLabel = "VERB", description = "Only this verb (get, list, delete…).")
        String verb;

        @Option(names = "--resource", paramLabel = "RESOURCE", description = "Only this resource (pods, pods/exec…).")
        String resource;

        @Option(names = "--credential", paramLabel = "ID", description = "Only requests made with this credential.")
        String credential;

        @Option(names = "--status", paramLabel = "CODE", description = "Only requests answered with this HTTP status.")
        Integer status;

        @Option(names = "--channel", paramLabel = "proxy|tool", description = "Only requests that came this way.")
        String channel;

        @Option(names = "--tool", paramLabel = "NAME", description = "Only requests made by this agent tool.")
        String tool;

        @Option(names = "--session", paramLabel = "ID", description = "Only requests of this agent session.")
        String session;

        @Option(names = "--from", paramLabel = "TIME", description = "Not before this time (RFC 3339).")
        String from;

        @Option(names = "--to", paramLabel = "TIME", description = "Not after this time (RFC 3339).")
        String to;

        @Option(names = "--include-discovery",
                description = "Include discovery requests and authentication failures (hidden by default).")
        boolean includeDiscovery;

        @Option(names = "--after", paramLabel = "AUDIT-ID", description = "Start after this row (to resume).")
        String after;

        @Override
        public Integer call() {
            System.setProperty("KLAVE_LOG_LEVEL", System.getProperty("KLAVE_LOG_LEVEL", "WARN"));
            System.setProperty("KLAVE_LIBRARY_LOG_LEVEL", "WARN");
            PrintWriter err = spec.commandLine().getErr();
            Optional<Settings> settings = Environment.settings(err);
            if (settings.isEmpty()) {
                return KlaveCommand.INVALID_SETTINGS;
            }
            try (Database database = Database.open(settings.get().database())) {
                AuditExport.Format chosen = AuditExport.Format.named(format);
                JdbiAuditStore store = new JdbiAuditStore(database);
                Optional<AuditCursor> start = Optional.ofNullable(after).map(id -> store.findById(id)
                        .map(AuditCursor::after).orElseThrow(Message.EXPORT_AFTER_INVALID::refusal));
                AuditFilter filter = filter().until(Instant.now());
                long written;
                try (OutputStream out = output == null ? new NonClosing(System.out)
                        : new FileOutputStream(output.toFile())) {
                    BufferedOutputStream buffered = new BufferedOutputStream(out, 64 * 1024);
                    written = AuditExport.stream(store, filter, start, chosen, bytes -> {
                        buffered.write(bytes);
                        buffered.flush();
                    });
                }
                err.printf("exported %d rows%s%n", written, output == null ? "" : " to " + output);
                err.flush();
                return 0;
            } catch (Refusal refusal) {
                err.println("klave: " + refusal.getMessage());
            } catch (DatabaseUnavailableException e) {
                err.println("klave: " + Message.DATABASE_UNAVAILABLE.text() + ": " + e.getMessage());
            } catch (IOException e) {
                err.println("klave: cannot write the export: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                err.println("klave: export interrupted");
            }
            err.flush();
            return KlaveCommand.FAILED;
        }

        private AuditFilter filter() {
            if (status != null && (status < 100 || status > 599)) {
                throw Message.STATUS_FILTER_INVALID.refusal();
            }
            Optional<Channel.Kind> kind = Optional.ofNullable(channel)
                    .map(text -> Channel.Kind.named(text).orElseThrow(Message.CHANNEL_INVALID::refusal));
            return new AuditFilter(Optional.ofNullable(subject), Optional.ofNullable(cluster),
                    Optional.ofNullable(namespace), Optional.ofNullable(verb), Optional.ofNullable(resource),
                    Optional.ofNullable(credential), time("from", from), time("to", to), includeDiscovery, kind,
                    Optional.ofNullable(tool), Optional.ofNullable(session), Optional.ofNullable(status));
        }

        private static Optional<Instant> time(String name, String text) {
            if (text == null) {
                return Optional.empty();
            }
            try {
                return Optional.of(OffsetDateTime.parse(text).toInstant());
            } catch (DateTimeParseException e) {
                throw Message.TIME_INVALID.refusal(name);
            }
        }
    }

    /** Standard output, flushed but never closed by the export. */
    private static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            out.write(bytes, offset, length);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
