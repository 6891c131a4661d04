package dev.klave;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Accounts;
import dev.klave.config.BaseUrl;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.http.RouteProvider;
import dev.klave.store.Database;
import dev.klave.store.JdbiLinkTokenStore;
import dev.klave.store.JdbiSubjectStore;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;

/** The domain services over one database; built once by {@code klave serve} and by the CLI alike. */
public record Services(Accounts accounts) {
    public Services {
        requireNonNull(accounts, "accounts is null");
    }

    public static Services create(Database database, BaseUrl baseUrl, Clock clock, SecureRandom random) {
        return new Services(new Accounts(database, new JdbiSubjectStore(database), new JdbiLinkTokenStore(database),
                new SecretTokenGenerator(random), clock, baseUrl));
    }

    /** Every domain package's API routes. */
    public List<RouteProvider> routes() {
        return List.of();
    }
}
