package dev.klave.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How a row came: a proxy row has no tool and no session; a tool row names its tool. */
class ChannelTest {
    @Test
    void aToolRowNamesItsToolAndMayCarryASession() {
        assertThat(Channel.tool("list_resources").session()).isEmpty();
        assertThat(Channel.tool("list_resources", "ses_01J9 x/=").session()).contains("ses_01J9 x/=");
        assertThat(Channel.tool("read_secret").kind()).isEqualTo(Channel.Kind.TOOL);
        assertThat(Channel.PROXY.kind().wire()).isEqualTo("proxy");
        assertThat(Channel.tool("whoami").kind().wire()).isEqualTo("tool");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "List_resources", "list-resources", "list resources", "get_logs2", "récord",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
    void aToolNameIsLowerCaseLettersAndUnderscoresUpTo64(String name) {
        assertThatThrownBy(() -> Channel.tool(name)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aToolNameOf64IsAccepted() {
        assertThat(Channel.tool("a".repeat(64)).tool()).contains("a".repeat(64));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ses\n1", "ses\t1", "sesión", "ses\u007f"})
    void aSessionIsPrintableAscii(String session) {
        assertThatThrownBy(() -> Channel.tool("get_logs", session)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSessionIsAtMost64Characters() {
        assertThat(Channel.tool("get_logs", "s".repeat(64)).session()).contains("s".repeat(64));
        assertThatThrownBy(() -> Channel.tool("get_logs", "s".repeat(65))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aProxyRowHasNoToolAndNoSessionAndAToolRowHasATool() {
        assertThatThrownBy(() -> new Channel(Channel.Kind.PROXY, Optional.of("get_logs"), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Channel(Channel.Kind.PROXY, Optional.empty(), Optional.of("ses_1")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Channel(Channel.Kind.TOOL, Optional.empty(), Optional.of("ses_1")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aStoredKindOutsideTheSetFailsInsteadOfReadingAsProxy() {
        assertThat(Channel.stored("proxy", Optional.empty(), Optional.empty())).isEqualTo(Channel.PROXY);
        assertThat(Channel.stored("tool", Optional.of("scale"), Optional.of("s"))).isEqualTo(Channel.tool("scale", "s"));
        assertThatThrownBy(() -> Channel.stored("Proxy", Optional.empty(), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Channel.Kind.named("mcp")).isEmpty();
    }
}
