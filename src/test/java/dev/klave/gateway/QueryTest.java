package dev.klave.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Watch and follow are read as the API server reads them (Go's ParseBool, first value), not by substring. */
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
        assertThat(query.raw()).as("forwarded byte for byte").isEqualTo(raw);
    }
}
