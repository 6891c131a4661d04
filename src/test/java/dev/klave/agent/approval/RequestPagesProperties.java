package dev.klave.agent.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.config.BaseUrl;
import java.net.URI;
import java.security.SecureRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * A request's page address from arbitrary text: only an id {@link RequestIds} makes goes in, and it
 * lands as one path segment under the base URL's path; anything else is refused, never encoded.
 */
class RequestPagesProperties {
    private static final BaseUrl BASE = BaseUrl.parse("https://klave.example.com/base");
    private final RequestIds ids = new RequestIds(new SecureRandom());

    @Property(tries = 1000)
    void arbitraryTextIsRefusedUnlessItIsARequestId(@ForAll String text) {
        if (text.matches("(wr_|ar_)[A-Za-z0-9_-]{1,64}")) {
            assertThat(RequestPages.decide(BASE, text)).isEqualTo("https://klave.example.com/base/agents/requests/"
                    + text);
        } else {
            assertThatThrownBy(() -> RequestPages.decide(BASE, text)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> RequestPages.access(BASE, text)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Property(tries = 200)
    void everyIdMadeIsOneSegmentUnderTheBasePath(@ForAll boolean write) {
        String id = write ? ids.write() : ids.access();
        URI page = URI.create(RequestPages.access(BASE, id));

        assertThat(page.getPath()).isEqualTo("/base/acceso/solicitudes/" + id);
        assertThat(page.getRawPath()).isEqualTo(page.getPath());
        assertThat(page.getQuery()).isNull();
        assertThat(page.getFragment()).isNull();
    }
}
