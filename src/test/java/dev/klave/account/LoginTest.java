package dev.klave.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.messages.Refusal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LoginTest {
    @ParameterizedTest
    @ValueSource(strings = {"ana", "a", "ana.perez", "ci-bot-2", "0day",
        "a23456789012345678901234567890123456789012345678901234567890123"})
    void kubernetesSafeLoginsAreAccepted(String login) {
        assertThat(new Login(login).value()).isEqualTo(login);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Ana", "ana_perez", "-ana", "ana-", ".ana", "ana.", "ana perez", "ana:admin",
        "system:masters", "ana/../x", "ñandú", "a234567890123456789012345678901234567890123456789012345678901234"})
    void otherLoginsAreRefusedWithAClear400(String login) {
        assertThatThrownBy(() -> new Login(login))
                .isInstanceOfSatisfying(Refusal.class, refusal -> assertThat(refusal.status()).isEqualTo(400))
                .hasMessage("login no válido: usa de 1 a 63 letras minúsculas, dígitos, '-' o '.', "
                        + "empezando y acabando en letra o dígito");
    }
}
