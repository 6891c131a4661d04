package dev.klave.account;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.messages.Refusal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a new password may be, wherever one is set (spec 1 §4 "Session and own account"). */
class PasswordPolicyTest {
    @ParameterizedTest(name = "{0} / «{1}»")
    @CsvSource(delimiter = '|', ignoreLeadingAndTrailingWhitespace = false, value = {
        "ana|short|la contraseña debe tener al menos 12 caracteres",
        "ana|anaanaanaan|la contraseña debe tener al menos 12 caracteres",
        "a-rather-long-login|a-rather-long-login|la contraseña no puede ser igual al login",
        "a-rather-long-login|A-Rather-Long-Login|la contraseña no puede ser igual al login",
        "ana|anaanaanaana|la contraseña no puede ser el login repetido",
        "ana|ANAanaAnaaNA|la contraseña no puede ser el login repetido",
        "ana|  anaanaanaanaana |la contraseña no puede ser el login repetido",
        "ab|abababababab|la contraseña no puede ser el login repetido",
        "x|xxxxxxxxxxxxxxxxxxxxxxxx|la contraseña no puede ser el login repetido",
        "ana.b-2|ana.b-2ana.b-2|la contraseña no puede ser el login repetido",
        "a-long-login|a-long-logina-long-login|la contraseña no puede ser el login repetido",
    })
    void isRefused(String login, String password, String reason) {
        assertThatThrownBy(() -> PasswordPolicy.check(password, new Login(login)))
                .isInstanceOf(Refusal.class).hasMessage(reason)
                .extracting(refusal -> ((Refusal) refusal).status()).isEqualTo(400);
    }

    @ParameterizedTest(name = "{0} / «{1}»")
    @CsvSource(delimiter = '|', value = {
        "ana|correct horse battery staple",
        "ana|anaanaanaanax",
        "ana|xanaanaanaana",
        "ana|anaana anaana",
        "ana|anaanaanaan a",
        "ab|abababababa b",
        "ana|ana1ana1ana1",
    })
    void isAccepted(String login, String password) {
        assertThatCode(() -> PasswordPolicy.check(password, new Login(login))).doesNotThrowAnyException();
    }
}
