package dev.klave.cli;

import dev.klave.AccountsWiring;
import dev.klave.account.Accounts;
import dev.klave.account.IssuedLink;
import dev.klave.account.Login;
import dev.klave.account.NewPerson;
import dev.klave.account.Subject;
import dev.klave.config.EncryptionKeyFile;
import dev.klave.config.MasterKey;
import dev.klave.config.Settings;
import dev.klave.login.SignInMethods;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.storage.DatabaseUnavailableException;
import dev.klave.store.Database;
import java.io.PrintWriter;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code klave user …}: account commands that write the database directly. */
@Command(name = "user",
        mixinStandardHelpOptions = true,
        description = "Creates people and marks break-glass accounts, without any identity provider.",
        subcommands = {UserCommand.Create.class, UserCommand.SetBreakGlass.class},
        synopsisSubcommandLabel = "COMMAND")
final class UserCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required (create, set-break-glass)");
    }

    @Command(name = "create",
            mixinStandardHelpOptions = true,
            description = {
                "Creates a person and prints their single-use invitation link ({base_url}/cuenta#kli_…, "
                        + "valid 72 hours) on standard output.",
                "Logins are never reused, not even after the account is disabled."
            })
    static final class Create implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<login>",
                description = "Lower-case letters, digits, '-' and '.', at most 63 characters.")
        String login;

        @Option(names = "--admin", description = "Give the administrator role.")
        boolean admin;

        @Option(names = "--break-glass",
                description = "Mark as break-glass: the password keeps working when forge or OIDC sign-in is on.")
        boolean breakGlass;

        @Option(names = "--display-name", paramLabel = "NAME", description = "Name shown in the interface "
                + "(default: the login).")
        String displayName;

        @Option(names = "--email", paramLabel = "ADDRESS", description = "E-mail address.")
        String email;

        @Override
        public Integer call() {
            Optional<Login> valid = validLogin(spec, login);
            if (valid.isEmpty()) {
                return KlaveCommand.FAILED;
            }
            return withAccounts(spec, accounts -> {
                IssuedLink invitation = accounts.createPerson(new NewPerson(valid.get(),
                        Optional.ofNullable(displayName), Optional.ofNullable(email), admin, breakGlass),
                        Optional.empty());
                PrintWriter err = spec.commandLine().getErr();
                err.printf("created %s%s%s; invitation link, single use, valid until %s:%n", login,
                        admin ? " (administrator)" : "", breakGlass ? " (break-glass)" : "",
                        invitation.expiresAt());
                err.flush();
                return invitation.link();
            });
        }
    }

    @Command(name = "set-break-glass",
            mixinStandardHelpOptions = true,
            description = "Marks an existing person as break-glass: their password keeps working when forge "
                    + "or OIDC sign-in is on. Only this command can set the mark, or (--off) remove it; removing "
                    + "it from the last administrator able to sign in is refused.")
    static final class SetBreakGlass implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<login>", description = "The person's login.")
        String login;

        @CommandLine.Option(names = "--off", description = "Remove the mark instead of setting it.")
        boolean off;

        @Override
        public Integer call() {
            Optional<Login> valid = validLogin(spec, login);
            if (valid.isEmpty()) {
                return KlaveCommand.FAILED;
            }
            return withAccounts(spec, accounts -> {
                Subject subject = accounts.setBreakGlass(valid.get(), !off);
                return subject.login() + (off ? " is no longer break-glass" : " is now break-glass");
            });
        }
    }

    /** The login argument, checked before anything is opened; an invalid one is reported here. */
    private static Optional<Login> validLogin(CommandLine.Model.CommandSpec spec, String text) {
        try {
            return Optional.of(new Login(text));
        } catch (Refusal refusal) {
            spec.commandLine().getErr().println("klave: " + refusal.getMessage());
            spec.commandLine().getErr().flush();
            return Optional.empty();
        }
    }

    /** Runs one account operation against the configured database; prints its result or one error line. */
    private static int withAccounts(CommandLine.Model.CommandSpec spec, Function<Accounts, String> operation) {
        // The command's output is one line; the libraries' start-up chatter would bury it.
        System.setProperty("KLAVE_LOG_LEVEL", System.getProperty("KLAVE_LOG_LEVEL", "WARN"));
        System.setProperty("KLAVE_LIBRARY_LOG_LEVEL", "WARN");
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<Settings> settings = Environment.settings(err);
        if (settings.isEmpty()) {
            return KlaveCommand.INVALID_SETTINGS;
        }
        try (Database database = Database.open(settings.get().database())) {
            SecureRandom random = new SecureRandom();
            MasterKey masterKey = EncryptionKeyFile.resolve(settings.get().encryptionKey(), random);
            // Only the accounts: no audit writer, stream guard, reconciler or HTTP client is built.
            AccountsWiring accounts = AccountsWiring.create(database, settings.get(), masterKey,
                    SignInMethods.from(settings.get()), Clock.systemUTC(), random);
            out.println(operation.apply(accounts.accounts()));
            out.flush();
            return 0;
        } catch (Refusal refusal) {
            err.println("klave: " + refusal.getMessage());
        } catch (DatabaseUnavailableException e) {
            err.println("klave: " + Message.DATABASE_UNAVAILABLE.text() + ": " + e.getMessage());
        }
        err.flush();
        return KlaveCommand.FAILED;
    }
}
