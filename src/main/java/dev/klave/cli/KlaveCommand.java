package dev.klave.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code klave}: the root command. */
@Command(name = "klave",
        mixinStandardHelpOptions = true,
        versionProvider = KlaveCommand.Version.class,
        description = "Klave: an access gateway in front of Kubernetes clusters.%n"
                + "Settings come from SERVICE_* environment variables (see README.md).",
        subcommands = {ServeCommand.class, UserCommand.class, AuditCommand.class},
        synopsisSubcommandLabel = "COMMAND")
public final class KlaveCommand implements Runnable {
    /** Exit status 0 from a command that must not end the process (the server runs on). */
    public static final int KEEP_RUNNING = -1;
    /** Exit status for settings that are wrong. */
    public static final int INVALID_SETTINGS = 2;
    /** Exit status for a refused or failed command. */
    public static final int FAILED = 1;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static CommandLine commandLine() {
        return new CommandLine(new KlaveCommand());
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required (serve, user, audit)");
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = KlaveCommand.class.getPackage().getImplementationVersion();
            return new String[] {"klave " + (version == null ? "(development build)" : version)};
        }
    }
}
