package dev.klave.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SecretTokenTest {
    private final SecretTokenGenerator generator = new SecretTokenGenerator(new SecureRandom());

    @Test
    void tokenIsItsPrefixAnd256RandomBits() {
        SecretToken token = generator.generate(TokenKind.LINK);

        assertThat(token.reveal()).startsWith("kli_").hasSize(4 + 43).matches("kli_[A-Za-z0-9_-]{43}");
        assertThat(generator.generate(TokenKind.CREDENTIAL).reveal()).startsWith("klt_");
        assertThat(generator.generate(TokenKind.REFRESH).reveal()).startsWith("klr_");
    }

    @Test
    void tokensDoNotRepeat() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            seen.add(generator.generate(TokenKind.CREDENTIAL).reveal());
        }
        assertThat(seen).hasSize(1000);
    }

    @Test
    void hashIsTheHexSha256OfTheWholeToken() {
        SecretToken token = SecretToken.parse(TokenKind.LINK, "kli_" + "A".repeat(43)).orElseThrow();

        // printf 'kli_%s' "$(printf 'A%.0s' {1..43})" | sha256sum
        assertThat(token.hash()).isEqualTo("cf9ef221a27a4b31071cc9acd33e0ae0d9cf72295afd19daa1cdf289605cd24c");
    }

    @Test
    void textsThatAreNotTokensOfTheKindAreRejected() {
        assertThat(SecretToken.parse(TokenKind.LINK, "klt_" + "A".repeat(43))).isEmpty();
        assertThat(SecretToken.parse(TokenKind.LINK, "kli_" + "A".repeat(42))).isEmpty();
        assertThat(SecretToken.parse(TokenKind.LINK, "kli_" + "A".repeat(42) + "=")).isEmpty();
        assertThat(SecretToken.parse(TokenKind.LINK, null)).isEmpty();
    }

    @Test
    void tokenIsNeverPrintedByAccident() {
        SecretToken token = generator.generate(TokenKind.CREDENTIAL);

        assertThat(token.toString()).isEqualTo("klt_[redacted]").doesNotContain(token.reveal().substring(4));
    }
}
