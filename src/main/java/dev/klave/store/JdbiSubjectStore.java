package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.account.EmailKey;
import dev.klave.account.Login;
import dev.klave.account.Subject;
import dev.klave.account.SubjectFilter;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectKind;
import dev.klave.account.SubjectStore;
import dev.klave.storage.NotFoundException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.SqlStatement;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link SubjectStore} in SQL, the same statements for both dialects. */
public final class JdbiSubjectStore implements SubjectStore {
    private static final String COLUMNS = "id, login, kind, display_name, email, is_admin, break_glass, "
            + "disabled_at, password_hash, created_at, writes_need_approval";
    /** Written beside the address on every insert and update (spec 2 §5 rule 7), never read into a Subject. */
    private static final String WRITTEN = COLUMNS + ", email_key";

    private final Database database;

    public JdbiSubjectStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void create(Subject subject) {
        database.write(handle -> bind(handle.createUpdate("INSERT INTO subjects (" + WRITTEN + ") VALUES "
                + "(:id, :login, :kind, :display_name, :email, :is_admin, :break_glass, :disabled_at, "
                + ":password_hash, :created_at, :writes_need_approval, :email_key)"), subject).execute());
    }

    @Override
    public Optional<Subject> findById(SubjectId id) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM subjects WHERE id = :id")
                .bind("id", id.value())
                .map(JdbiSubjectStore::map)
                .findOne());
    }

    @Override
    public Optional<Subject> findByLogin(Login login) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM subjects WHERE login = :login")
                .bind("login", login.value())
                .map(JdbiSubjectStore::map)
                .findOne());
    }

    @Override
    public List<Subject> list() {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM subjects ORDER BY login")
                .map(JdbiSubjectStore::map)
                .list());
    }

    @Override
    public List<Subject> list(SubjectFilter filter, Optional<Login> after, int limit) {
        ListingSql.Statement statement = listing(filter, after, limit);
        return database.withHandle(handle -> statement.list(handle, JdbiSubjectStore::map));
    }

    @Override
    public List<Subject> findByIds(java.util.Collection<SubjectId> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS
                        + " FROM subjects WHERE id IN (<ids>) ORDER BY login")
                .bindList("ids", ids.stream().map(SubjectId::value).distinct().toList())
                .map(JdbiSubjectStore::map)
                .list());
    }

    /**
     * The listing's one statement: it walks the unique index on {@code login} from the keyset on,
     * which gives the order, and filters as it goes (a few thousand subjects at most, spec 1 §2).
     */
    static ListingSql.Statement listing(SubjectFilter filter, Optional<Login> after, int limit) {
        ListingSql sql = new ListingSql("SELECT " + COLUMNS + " FROM subjects");
        filter.kind().ifPresent(kind -> sql.where("kind = :kind", "kind", kind.code()));
        filter.enabled().ifPresent(enabled -> sql.where(enabled ? "disabled_at IS NULL" : "disabled_at IS NOT NULL"));
        if (filter.adminsOnly()) {
            sql.where("is_admin = :admin", "admin", true);
        }
        filter.text().ifPresent(text -> sql.where("(login LIKE :text ESCAPE '!' OR lower(display_name) LIKE :text "
                + "ESCAPE '!' OR lower(email) LIKE :text ESCAPE '!')", "text", ListingSql.containing(text)));
        after.ifPresent(login -> sql.where("login > :after_login", "after_login", login.value()));
        return sql.orderBy("login", limit);
    }

    @Override
    public List<Subject> findPeopleByEmail(String email) {
        Optional<String> key = EmailKey.of(email);
        if (key.isEmpty()) {
            return List.of();
        }
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM subjects "
                        + "WHERE email_key = :email_key AND kind = :kind ORDER BY login")
                .bind("email_key", key.get())
                .bind("kind", SubjectKind.PERSON.code())
                .map(JdbiSubjectStore::map)
                .list());
    }

    @Override
    public List<Subject> lockAdmins() {
        // SQLite: the IMMEDIATE transaction already holds the database's write lock.
        String lock = database.dialect() == Dialect.POSTGRES ? " FOR UPDATE" : "";
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM subjects "
                        + "WHERE is_admin = :admin ORDER BY login" + lock)
                .bind("admin", true)
                .map(JdbiSubjectStore::map)
                .list());
    }

    @Override
    public Subject update(SubjectId id, UnaryOperator<Subject> change) {
        return database.inTransaction(() -> database.withHandle(handle -> {
            Subject current = readForUpdate(handle, id);
            Subject changed = requireNonNull(change.apply(current), "change returned null");
            if (!changed.id().equals(current.id()) || !changed.login().equals(current.login())
                    || changed.kind() != current.kind() || !changed.createdAt().equals(current.createdAt())) {
                throw new IllegalArgumentException("id, login, kind and creation time of a subject are immutable");
            }
            bind(handle.createUpdate("UPDATE subjects SET display_name = :display_name, email = :email, "
                    + "is_admin = :is_admin, break_glass = :break_glass, disabled_at = :disabled_at, "
                    + "password_hash = :password_hash, writes_need_approval = :writes_need_approval, "
                    + "email_key = :email_key WHERE id = :id"), changed).execute();
            return changed;
        }));
    }

    private Subject readForUpdate(Handle handle, SubjectId id) {
        // PostgreSQL: lock the row so two updates of one subject apply one after the other.
        // SQLite: the IMMEDIATE transaction already holds the database's write lock.
        String lock = database.dialect() == Dialect.POSTGRES ? " FOR UPDATE" : "";
        return handle.createQuery("SELECT " + COLUMNS + " FROM subjects WHERE id = :id" + lock)
                .bind("id", id.value())
                .map(JdbiSubjectStore::map)
                .findOne()
                .orElseThrow(() -> new NotFoundException("no subject " + id));
    }

    private static <S extends SqlStatement<S>> S bind(S statement, Subject subject) {
        return statement.bind("id", subject.id().value())
                .bind("login", subject.login().value())
                .bind("kind", subject.kind().code())
                .bind("display_name", subject.displayName())
                .bind("email", subject.email().orElse(null))
                .bind("is_admin", subject.admin())
                .bind("break_glass", subject.breakGlass())
                .bind("disabled_at", Times.toMillis(subject.disabledAt()))
                .bind("password_hash", subject.passwordHash().orElse(null))
                .bind("created_at", subject.createdAt().toEpochMilli())
                .bind("writes_need_approval", subject.writesNeedApproval())
                .bind("email_key", subject.email().flatMap(EmailKey::of).orElse(null));
    }

    private static Subject map(ResultSet row, StatementContext context) throws SQLException {
        return new Subject(
                new SubjectId(row.getString("id")),
                new Login(row.getString("login")),
                SubjectKind.fromCode(row.getString("kind")),
                row.getString("display_name"),
                Optional.ofNullable(row.getString("email")),
                row.getBoolean("is_admin"),
                row.getBoolean("break_glass"),
                Times.instant(row, "disabled_at"),
                Optional.ofNullable(row.getString("password_hash")),
                Times.instant(row, "created_at").orElseThrow(),
                row.getBoolean("writes_need_approval"));
    }
}
