package dev.klave.cli;

import picocli.CommandLine;

/** Entry point of the jar; the {@code ./klave} launcher runs it with JDK 25. */
public final class Main {
    private Main() {}

    public static void main(String[] arguments) {
        // Vert.x logs through SLF4J like everything else.
        System.setProperty("vertx.logger-delegate-factory-class-name", "io.vertx.core.logging.SLF4JLogDelegateFactory");
        int status = KlaveCommand.commandLine().execute(arguments);
        if (status != KlaveCommand.KEEP_RUNNING) {
            System.exit(status);
        }
    }
}
