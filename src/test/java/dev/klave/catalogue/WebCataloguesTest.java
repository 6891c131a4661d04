package dev.klave.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.IdentityProvider;
import dev.klave.audit.EventType;
import dev.klave.login.PasswordFailure;
import dev.klave.login.SignInError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The web interface's two catalogues against the backend's closed sets (which {@link ClosedSetsTest}
 * pins to the specification): every control-event type has its sentence and every reason of a
 * failed sign-in its words in {@code eventSentence.ts}; every sign-in failure code a provider can
 * send has its message in that provider's table of {@code signInErrors.ts}. A failure names what
 * is missing. The files are read from {@code web/src}: the build runs from the repository's root.
 */
class WebCataloguesTest {
    private static final Path WEB = Path.of("web", "src");
    private static final Pattern CASE = Pattern.compile("case \"([^\"]+)\":");
    private static final Pattern KEY = Pattern.compile("^\\s+([a-z0-9_]+):", Pattern.MULTILINE);

    @Test
    void everyEventTypeHasASentence() throws IOException {
        String sentence = between(read("eventSentence.ts"), "export function sentence(", "export function eventTypes(");
        Set<String> cases = all(CASE, sentence);

        List<String> missing = Arrays.stream(EventType.values()).map(EventType::code)
                .filter(type -> !cases.contains(type)).toList();

        assertThat(cases).as("the switch of sentence() in eventSentence.ts").isNotEmpty();
        assertThat(missing).as("event types without a case in sentence() of web/src/eventSentence.ts").isEmpty();
    }

    @Test
    void everySignInFailureReasonHasItsWords() throws IOException {
        String reasonsTable = between(read("eventSentence.ts"), "const reasons: Record<string, string> = {", "\n  };");
        Set<String> reasons = all(KEY, reasonsTable);

        List<String> missing = Stream.concat(Arrays.stream(SignInError.values()).map(SignInError::code),
                        Arrays.stream(PasswordFailure.values()).map(PasswordFailure::code))
                .distinct().filter(reason -> !reasons.contains(reason)).toList();

        assertThat(reasons).as("the reasons table of failureReason() in eventSentence.ts").isNotEmpty();
        assertThat(missing).as("login.failure reasons without words in failureReason() of web/src/eventSentence.ts")
                .isEmpty();
    }

    @Test
    void everySignInErrorHasAMessageForEachProviderThatSendsIt() throws IOException {
        String file = read("signInErrors.ts");
        Set<String> forge = all(KEY, between(file, "export const FORGE_ERRORS: Record<string, string> = {", "\n};"));
        Set<String> oidc = all(KEY, between(between(file, "export function oidcErrors(", "\n}\n"), "return {", "\n  };"));

        List<String> missing = new ArrayList<>();
        for (SignInError error : SignInError.values()) {
            if (error.providers().contains(IdentityProvider.FORGE) && !forge.contains(error.code())) {
                missing.add("FORGE_ERRORS." + error.code());
            }
            if (error.providers().contains(IdentityProvider.OIDC) && !oidc.contains(error.code())) {
                missing.add("oidcErrors()." + error.code());
            }
        }

        assertThat(forge).as("FORGE_ERRORS in signInErrors.ts").isNotEmpty();
        assertThat(oidc).as("the table of oidcErrors() in signInErrors.ts").isNotEmpty();
        assertThat(missing).as("sign-in error codes without a message in web/src/signInErrors.ts").isEmpty();
    }

    private static String read(String name) throws IOException {
        return Files.readString(WEB.resolve(name));
    }

    /**
     * The text after the first {@code start} up to the next {@code end} (a table's closing line, at
     * its indentation: a template string may hold "};"); the test fails if either is gone.
     */
    private static String between(String text, String start, String end) {
        int from = text.indexOf(start);
        assertThat(from).as("«%s» in the web catalogue", start).isNotNegative();
        int to = text.indexOf(end, from + start.length());
        assertThat(to).as("«%s» after «%s» in the web catalogue", end, start).isNotNegative();
        return text.substring(from + start.length(), to);
    }

    private static Set<String> all(Pattern pattern, String text) {
        Set<String> found = new LinkedHashSet<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }
}
