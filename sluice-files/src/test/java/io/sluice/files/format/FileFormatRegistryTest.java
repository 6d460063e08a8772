package io.sluice.files.format;

import io.sluice.api.OptionDef;
import io.sluice.api.Options;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The formats' one registry: each format is one {@link FileFormat}, found by name, with its reading and writing. */
class FileFormatRegistryTest {

    @Test
    void everyFormatIsRegisteredOnceAndFoundByNameCaseInsensitively() {
        assertThat(FileFormats.ALL).extracting(FileFormat::name).containsExactly("json", "csv", "text");
        assertThat(FileFormats.NAMES).containsExactlyInAnyOrder("json", "csv", "text");
        assertThat(FileFormats.named("CSV")).isSameAs(FileFormats.ALL.get(1));
        assertThatThrownBy(() -> FileFormats.named("parquet")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown file format 'parquet': json, csv or text is accepted");
        assertThatThrownBy(() -> FileFormats.options(null)).hasMessage("Unknown file format 'null': json, csv or "
                + "text is accepted");
    }

    @Test
    void eachFormatCarriesItsReadingSide() {
        Options none = Options.of(Map.of());
        assertThat(FileFormats.named("text").fixedSchema(none)).contains(StructType.fromDDL("value string"));
        assertThat(FileFormats.named("json").fixedSchema(none)).isEmpty();
        assertThat(FileFormats.named("json").readOptions().find("allowComments")).isPresent();
        assertThat(FileFormats.named("csv").readOptions().find("enforceSchema")).isPresent();
        assertThat(FileFormats.named("text").readOptions().options()).extracting(OptionDef::name)
                .containsExactly("wholetext", "lineSep");
        assertThat(FileFormats.reader("csv", none, StructType.fromDDL("a int"))).isInstanceOf(CsvFormat.class);
    }

    @Test
    void eachFormatCarriesItsWritingSideWithSparksMessages() {
        assertThat(FileFormats.ALL).extracting(f -> f.writing().orElseThrow().extension())
                .containsExactly(".json", ".csv", ".txt");
        assertThat(FileFormats.named("json").writing().orElseThrow().options().options()).extracting(OptionDef::name)
                .containsExactly("ignoreNullFields");
        assertThat(FileFormats.named("text").writing().orElseThrow().options().options()).isEmpty();
        StructType schema = StructType.fromDDL("a array<int>, b string, c int");
        assertThatThrownBy(() -> FileFormats.named("csv").writing().orElseThrow().checkColumns(schema,
                new int[] {0, 1})).hasMessage("[UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE] The CSV datasource doesn't "
                + "support the column `a` of the type \"ARRAY<INT>\".");
        FileFormats.named("csv").writing().orElseThrow().checkColumns(schema, new int[] {1, 2});
        FileFormats.named("json").writing().orElseThrow().checkColumns(schema, new int[] {0, 1, 2});
        assertThatThrownBy(() -> FileFormats.named("text").writing().orElseThrow().checkColumns(schema,
                new int[] {1, 2})).hasMessage("Text data source supports only a single column, and you have 2 "
                + "columns.");
        assertThatThrownBy(() -> FileFormats.named("text").writing().orElseThrow().checkColumns(schema,
                new int[] {2})).hasMessage("[UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE] The Text datasource doesn't "
                + "support the column `c` of the type \"INT\".");
    }
}
