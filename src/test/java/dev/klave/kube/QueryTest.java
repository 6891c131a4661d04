package dev.klave.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.messages.Refusal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Flags are read as the API server reads them (Go's ParseQuery and ParseBool, first value), not by substring. */
class QueryTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "watch=true|true|false",
        "watch=1|true|false",
        "watch=True&limit=5|true|false",
        "limit=5&watch=t|true|false",
        "watch=false|false|false",
        "watch=10|false|false",
        "allowWatchBookmarks=true|false|false",
        "nowatch=true|false|false",
        "watch=false&watch=true|false|false",
        "w%61tch=true|true|false",
        "follow=true&container=app|false|true",
        "follow=1|false|true",
        "labelSelector=follow%3Dtrue|false|false",
        "follow|false|false"})
    void flagsAreParsedNotSearched(String raw, boolean watch, boolean follow) {
        Query query = Query.parse(raw);

        assertThat(query.watch()).isEqualTo(watch);
        assertThat(query.follow()).isEqualTo(follow);
        assertThat(query.encoded()).as("forwarded byte for byte").isEqualTo(raw);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "dryRun=All|true",
        "dryRun=All&dryRun=All|true",
        "fieldManager=kubectl&dryRun=All|true",
        "dry%52un=All|true",
        "dryRun=all|false",
        "dryRun=|false",
        "dryRun=All&dryRun=None|false",
        "x=dryRun%3DAll|false",
        "dryrun=All|false"})
    void aDryRunIsEveryDryRunValueAll(String raw, boolean dryRun) {
        assertThat(Query.parse(raw).dryRun()).isEqualTo(dryRun);
    }

    @Test
    void pairsMadeByKlaveAreEncodedOnceAndCannotAddAParameter() {
        Query query = Query.NONE.with("fieldSelector", "involvedObject.name=a&dryRun=None#x")
                .with("labelSelector", "app in (a, b)+c");

        assertThat(query.encoded()).isEqualTo("fieldSelector=involvedObject.name%3Da%26dryRun%3DNone%23x"
                + "&labelSelector=app%20in%20%28a%2C%20b%29%2Bc");
        assertThat(Query.parse(query.encoded()).pairs()).isEqualTo(query.pairs());
        assertThat(query.all("dryRun")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a=b#c", "a=%zz", "a=%4", "a=b c", "a=\"b\"", "a=b;c=d", "a={}", "a=|", "a=ñ", "a=\\"})
    void aQueryWithCharactersNoUriAllowsIsRefused(String raw) {
        assertThatThrownBy(() -> Query.parse(raw)).isInstanceOf(Refusal.class);
    }
}
