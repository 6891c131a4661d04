package dev.klave.cli;

import dev.klave.Klave;
import dev.klave.config.Settings;
import dev.klave.messages.Message;
import dev.klave.storage.DatabaseUnavailableException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** {@code klave serve}: runs the service until SIGTERM or SIGINT. */
@Command(name = "serve",
        mixinStandardHelpOptions = true,
        description = {
            "Starts Klave: the API, the web interface and the Kubernetes proxy on one port.",
            "With no settings it listens on 0.0.0.0:8080 and keeps its state in data/klave.db "
                    + "(SQLite), generating data/encryption.key on first start.",
            "SIGTERM stops it gracefully: /readyz fails first, requests in flight finish "
                    + "(SERVICE_SHUTDOWN_TIMEOUT), the database closes last."
        })
final class ServeCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Optional<Settings> settings = Environment.settings(err);
        if (settings.isEmpty()) {
            return KlaveCommand.INVALID_SETTINGS;
        }
        Klave klave;
        try {
            klave = Klave.start(settings.get(), Clock.systemUTC(), List.of());
        } catch (DatabaseUnavailableException e) {
            err.println("klave: " + Message.DATABASE_UNAVAILABLE.text() + ": " + e.getMessage());
            err.flush();
            return KlaveCommand.FAILED;
        } catch (RuntimeException e) {
            err.println("klave: cannot start: " + e.getMessage());
            err.flush();
            return KlaveCommand.FAILED;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(klave::close, "klave-shutdown"));
        return KlaveCommand.KEEP_RUNNING;
    }
}
