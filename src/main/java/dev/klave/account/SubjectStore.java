package dev.klave.account;

import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** Storage of subjects. Subjects are never deleted, so a login stays taken for ever. */
public interface SubjectStore {
    /**
     * Stores a new subject.
     *
     * @throws dev.klave.storage.AlreadyExistsException when its login (or forge id) is taken
     */
    void create(Subject subject);

    Optional<Subject> findById(SubjectId id);

    Optional<Subject> findByLogin(Login login);

    /**
     * The subject a query parameter names, by its id or by its login (the listings' {@code subject}).
     *
     * @throws dev.klave.messages.Refusal 404 {@code USER_NOT_FOUND} when it names none
     */
    default SubjectId idOrLogin(String text) {
        try {
            return new SubjectId(text);
        } catch (IllegalArgumentException notAnId) {
            if (!Login.isValid(text)) {
                throw dev.klave.messages.Message.USER_NOT_FOUND.refusal();
            }
            return findByLogin(new Login(text)).map(Subject::id)
                    .orElseThrow(dev.klave.messages.Message.USER_NOT_FOUND::refusal);
        }
    }

    /**
     * The people whose e-mail matches {@code email} after trimming and folding only A to Z (spec 2
     * §5 rule 7; {@link EmailKey}), enabled or not, ordered by login.
     */
    List<Subject> findPeopleByEmail(String email);

    /** Every subject, ordered by login. */
    List<Subject> list();

    /**
     * Up to {@code limit} subjects matching {@code filter}, ordered by login, after the login
     * {@code after} when given.
     */
    List<Subject> list(SubjectFilter filter, Optional<Login> after, int limit);

    /** The subjects {@code ids} name (those that exist), ordered by login: one query. */
    List<Subject> findByIds(java.util.Collection<SubjectId> ids);

    /**
     * Every administrator, locked until the surrounding transaction ends, so that two changes
     * that could each remove "the last administrator" run one after the other.
     */
    List<Subject> lockAdmins();

    /**
     * Reads the subject, applies {@code change} and writes the result, atomically. The id, login,
     * kind and creation time cannot change.
     *
     * @throws dev.klave.storage.NotFoundException when there is no such subject
     */
    Subject update(SubjectId id, UnaryOperator<Subject> change);
}
