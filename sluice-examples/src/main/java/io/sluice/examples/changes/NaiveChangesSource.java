package io.sluice.examples.changes;

import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.datasource.DataSource;
import io.sluice.api.datasource.DataSourceContext;
import io.sluice.api.datasource.ReadResult;
import io.sluice.api.datasource.SimpleDataSourceStreamReader;

import java.util.ArrayList;
import java.util.List;

/**
 * What NOT to do, {@code format("changes-naive")}: the offset counts the changes fetched so far, but the changes
 * themselves live only in this reader's memory. A restart after a batch was logged and before it was committed
 * cannot give them back: {@link #simpleStreamReader}'s {@code readBetweenOffsets} has nothing to return, and the
 * contract test kit reports {@code replayable-after-restart}. {@link ChangesSource} is the fix.
 *
 * <p>Option: {@code url} (required).
 */
public final class NaiveChangesSource implements DataSource {
    record Count(long n) {
    }

    @Override
    public String name() {
        return "changes-naive";
    }

    /** Declared, so a misspelt option fails at load() and another unknown one is warned about. */
    @Override
    public OptionSet options() {
        return OptionSet.of(OptionDef.string("url", "the changes server, e.g. http://127.0.0.1:8080").asRequired());
    }

    @Override
    public String schemaDdl(Options options) {
        options.require("url");
        return "n bigint, change string";
    }

    @Override
    public SimpleDataSourceStreamReader<?> simpleStreamReader(DataSourceContext context) {
        String url = context.options().require("url");
        return new SimpleDataSourceStreamReader<Count>() {
            @Override
            public Class<?> offsetType() {
                return Count.class;
            }

            @Override
            public Count initialOffset() {
                return new Count(0);
            }

            @Override
            public ReadResult<Count> read(Count start) {
                List<Row> rows = new ArrayList<>();
                for (String change : ChangesClient.fetch(url)) {
                    rows.add(Row.of(start.n() + rows.size() + 1, change));
                }
                return new ReadResult<>(rows, new Count(start.n() + rows.size()));
            }

            @Override
            public List<Row> readBetweenOffsets(Count start, Count end) {
                // The upstream forgot these changes when it handed them out, and nothing kept them: lost.
                return List.of();
            }
        };
    }
}
